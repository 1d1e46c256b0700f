import { lazy, type FunctionComponent } from 'react';

/**
 * Every page of the console as its own chunk, loaded when first opened, so the first screen
 * (login, then the dashboard) downloads only react-admin and what those two need
 * (docs/console.md, "Performance"). react-admin's Layout wraps pages in Suspense.
 */
function page<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  // Every page takes no props of its own (react-admin passes what it passes to any page).
  return lazy(async () => ({ default: (await load())[name] as FunctionComponent<object> }));
}

export const Dashboard = page(() => import('./dashboard/Dashboard'), 'Dashboard');

export const AgentList = page(() => import('./agents/AgentList'), 'AgentList');
export const AgentShow = page(() => import('./agents/AgentShow'), 'AgentShow');
export const AgentEdit = page(() => import('./agents/AgentEdit'), 'AgentEdit');
export const AgentCreate = page(() => import('./agents/AgentCreate'), 'AgentCreate');

export const SessionList = page(() => import('./sessions/SessionList'), 'SessionList');
export const SessionShow = page(() => import('./sessions/SessionShow'), 'SessionShow');
export const MessageList = page(() => import('./messages/MessageList'), 'MessageList');
export const TurnList = page(() => import('./turns/TurnList'), 'TurnList');

export const ChannelList = page(() => import('./channels/ChannelList'), 'ChannelList');
export const ChannelShow = page(() => import('./channels/ChannelShow'), 'ChannelShow');
export const ChannelEdit = page(() => import('./channels/ChannelEdit'), 'ChannelEdit');
export const ChannelCreate = page(() => import('./channels/ChannelCreate'), 'ChannelCreate');

export const ToolList = page(() => import('./tools/ToolList'), 'ToolList');
export const ToolShow = page(() => import('./tools/ToolShow'), 'ToolShow');
export const HttpToolEdit = page(() => import('./tools/HttpToolEdit'), 'HttpToolEdit');
export const HttpToolCreate = page(() => import('./tools/HttpToolCreate'), 'HttpToolCreate');

export const CredentialList = page(() => import('./credentials/CredentialList'), 'CredentialList');
export const CredentialEdit = page(() => import('./credentials/CredentialForms'), 'CredentialEdit');
export const CredentialCreate = page(() => import('./credentials/CredentialForms'), 'CredentialCreate');

export const UserList = page(() => import('./users/UserViews'), 'UserList');
export const UserEdit = page(() => import('./users/UserViews'), 'UserEdit');
export const UserCreate = page(() => import('./users/UserViews'), 'UserCreate');

export const AuditList = page(() => import('./audit/AuditList'), 'AuditList');
export const DeliveryList = page(() => import('./deliveries/DeliveryList'), 'DeliveryList');
export const DeliveryShow = page(() => import('./deliveries/DeliveryShow'), 'DeliveryShow');

export const ModelPriceList = page(() => import('./prices/PriceViews'), 'ModelPriceList');
export const ModelPriceEdit = page(() => import('./prices/PriceViews'), 'ModelPriceEdit');
export const ModelPriceCreate = page(() => import('./prices/PriceViews'), 'ModelPriceCreate');
export const TenantModelPriceList = page(() => import('./prices/PriceViews'), 'TenantModelPriceList');
export const TenantModelPriceEdit = page(() => import('./prices/PriceViews'), 'TenantModelPriceEdit');
export const TenantModelPriceCreate = page(() => import('./prices/PriceViews'), 'TenantModelPriceCreate');

export const TenantList = page(() => import('./tenants/TenantList'), 'TenantList');
export const TenantEdit = page(() => import('./tenants/TenantForms'), 'TenantEdit');
export const TenantCreate = page(() => import('./tenants/TenantForms'), 'TenantCreate');

export const Playground = page(() => import('./playground/Playground'), 'Playground');
export const QueuesPage = page(() => import('./queues/QueuesPage'), 'QueuesPage');
