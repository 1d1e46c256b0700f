import { AppBar, TitlePortal } from 'react-admin';
import { TenantSwitcher } from '../tenants/TenantSwitcher';

/** react-admin's app bar with the platform admins' tenant switcher beside the title. */
export function ConsoleAppBar() {
  return (
    <AppBar>
      <TitlePortal />
      <TenantSwitcher />
    </AppBar>
  );
}
