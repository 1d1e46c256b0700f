import BoltIcon from '@mui/icons-material/Bolt';
import BusinessIcon from '@mui/icons-material/Business';
import ChatIcon from '@mui/icons-material/Chat';
import ForumIcon from '@mui/icons-material/Forum';
import SmartToyIcon from '@mui/icons-material/SmartToy';
import { Admin, Resource } from 'react-admin';
import { authProvider } from './api/auth-provider';
import { dataProvider } from './api/data-provider';
import { canWrite } from './api/roles';
import { AgentCreate } from './agents/AgentCreate';
import { AgentEdit } from './agents/AgentEdit';
import { AgentList } from './agents/AgentList';
import { AgentShow } from './agents/AgentShow';
import { Dashboard } from './dashboard/Dashboard';
import { LoginPage } from './login/LoginPage';
import { MessageList } from './messages/MessageList';
import { SessionList } from './sessions/SessionList';
import { SessionShow } from './sessions/SessionShow';
import { TenantList } from './tenants/TenantList';
import { TurnList } from './turns/TurnList';

export function App() {
  return (
    <Admin
      title="Switchboard"
      authProvider={authProvider}
      dataProvider={dataProvider}
      loginPage={LoginPage}
      dashboard={Dashboard}
      requireAuth
      disableTelemetry
    >
      {(role: string | undefined) => {
        const writer = canWrite(role);
        return [
          <Resource
            key="agents"
            name="agents"
            list={AgentList}
            show={AgentShow}
            edit={writer ? AgentEdit : undefined}
            create={writer ? AgentCreate : undefined}
            icon={SmartToyIcon}
            recordRepresentation="name"
          />,
          <Resource key="sessions" name="sessions" list={SessionList} show={SessionShow} icon={ForumIcon} recordRepresentation="externalKey" />,
          <Resource key="messages" name="messages" list={MessageList} icon={ChatIcon} />,
          <Resource key="turns" name="turns" list={TurnList} icon={BoltIcon} />,
          <Resource key="provider-credentials" name="provider-credentials" recordRepresentation="name" />,
          <Resource key="tools" name="tools" recordRepresentation="toolId" />,
          <Resource key="users" name="users" recordRepresentation="email" />,
          role === 'platform_admin' ? <Resource key="tenants" name="tenants" list={TenantList} icon={BusinessIcon} /> : null,
        ];
      }}
    </Admin>
  );
}
