import BoltIcon from '@mui/icons-material/Bolt';
import BuildIcon from '@mui/icons-material/Build';
import BusinessIcon from '@mui/icons-material/Business';
import CableIcon from '@mui/icons-material/Cable';
import ChatIcon from '@mui/icons-material/Chat';
import ForumIcon from '@mui/icons-material/Forum';
import HistoryIcon from '@mui/icons-material/History';
import KeyIcon from '@mui/icons-material/Key';
import OutboxIcon from '@mui/icons-material/Outbox';
import PeopleIcon from '@mui/icons-material/People';
import PriceIcon from '@mui/icons-material/Paid';
import SmartToyIcon from '@mui/icons-material/SmartToy';
import { Route } from 'react-router-dom';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { authProvider } from './api/auth-provider';
import { dataProvider } from './api/data-provider';
import { canWrite } from './api/roles';
import { inboxRoutes } from './inbox/inbox-routes';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { darkTheme, lightTheme } from './layout/theme';
import { LoginPage } from './login/LoginPage';
import { canOperate } from './queues/ops-roles';
import { resource } from './api/switchboard-client';
import {
  AgentCreate,
  AgentEdit,
  AgentList,
  AgentShow,
  AuditList,
  ChannelCreate,
  ChannelEdit,
  ChannelList,
  ChannelShow,
  CredentialCreate,
  CredentialEdit,
  CredentialList,
  Dashboard,
  DeliveryList,
  DeliveryShow,
  HttpToolCreate,
  HttpToolEdit,
  MessageList,
  ModelPriceCreate,
  ModelPriceEdit,
  ModelPriceList,
  Playground,
  QueuesPage,
  SessionList,
  SessionShow,
  TenantCreate,
  TenantEdit,
  TenantList,
  TenantModelPriceCreate,
  TenantModelPriceEdit,
  TenantModelPriceList,
  ToolList,
  ToolShow,
  TurnList,
  UserCreate,
  UserEdit,
  UserList,
} from './views';

export function App() {
  return (
    <Admin
      title="Switchboard"
      authProvider={authProvider}
      dataProvider={dataProvider}
      loginPage={LoginPage}
      dashboard={Dashboard}
      layout={ConsoleLayout}
      theme={lightTheme}
      darkTheme={darkTheme}
      requireAuth
      disableTelemetry
    >
      {(role: string | undefined) => {
        // Roles that may not change config get lists and read-only pages, never edit or create.
        const writer = canWrite(role);
        const editable = <T,>(view: T) => (writer ? view : undefined);
        return [
          <Resource key="agents" name={resource('agents')} list={AgentList} show={AgentShow} edit={editable(AgentEdit)} create={editable(AgentCreate)} icon={SmartToyIcon} recordRepresentation="name" />,
          <Resource key="agent-health" name={resource('agent-health')} />,
          <Resource key="sessions" name={resource('sessions')} list={SessionList} show={SessionShow} icon={ForumIcon} recordRepresentation="externalKey" />,
          <Resource key="messages" name={resource('messages')} list={MessageList} icon={ChatIcon} />,
          <Resource key="turns" name={resource('turns')} list={TurnList} icon={BoltIcon} />,
          <Resource key="channels" name={resource('channels')} list={ChannelList} show={ChannelShow} edit={editable(ChannelEdit)} create={editable(ChannelCreate)} icon={CableIcon} recordRepresentation="name" />,
          <Resource key="tools" name={resource('tools')} list={ToolList} show={ToolShow} icon={BuildIcon} recordRepresentation="toolId" />,
          <Resource key="http-tools" name={resource('http-tools')} edit={editable(HttpToolEdit)} create={editable(HttpToolCreate)} recordRepresentation="toolId" />,
          <Resource
            key="provider-credentials"
            name={resource('provider-credentials')}
            options={{ label: 'Provider keys' }}
            list={CredentialList}
            edit={editable(CredentialEdit)}
            create={editable(CredentialCreate)}
            icon={KeyIcon}
            recordRepresentation="name"
          />,
          <Resource key="users" name={resource('users')} list={UserList} edit={editable(UserEdit)} create={editable(UserCreate)} icon={PeopleIcon} recordRepresentation="email" />,
          role !== 'viewer' ? <Resource key="audit-log" name={resource('audit-log')} options={{ label: 'Audit log' }} list={AuditList} icon={HistoryIcon} /> : null,
          canOperate(role) ? <Resource key="deliveries" name={resource('deliveries')} list={DeliveryList} show={DeliveryShow} icon={OutboxIcon} /> : null,
          <Resource
            key="model-prices"
            name={resource('model-prices')}
            options={{ label: 'Model prices' }}
            list={ModelPriceList}
            edit={role === 'platform_admin' ? ModelPriceEdit : undefined}
            create={role === 'platform_admin' ? ModelPriceCreate : undefined}
            icon={PriceIcon}
          />,
          <Resource
            key="tenant-model-prices"
            name={resource('tenant-model-prices')}
            options={{ label: 'Negotiated prices' }}
            list={TenantModelPriceList}
            edit={role === 'platform_admin' ? TenantModelPriceEdit : undefined}
            create={role === 'platform_admin' ? TenantModelPriceCreate : undefined}
          />,
          role === 'platform_admin' ? <Resource key="tenants" name={resource('tenants')} list={TenantList} create={TenantCreate} edit={TenantEdit} icon={BusinessIcon} recordRepresentation="name" /> : null,
          <CustomRoutes key="custom">
            <Route path="/playground" element={<Playground />} />
            {inboxRoutes()}
            {canOperate(role) && <Route path="/queues" element={<QueuesPage />} />}
          </CustomRoutes>,
        ];
      }}
    </Admin>
  );
}
