import { AppBar, Logout, TitlePortal, UserMenu, useGetIdentity } from 'react-admin';
import { TenantSwitcher } from '../tenants/TenantSwitcher';

/**
 * react-admin's user menu, named after the user it shows: its button reads the user's name, and
 * a screen reader's name for it must contain that text (axe-core: label-content-name-mismatch).
 */
function ConsoleUserMenu() {
  const { identity } = useGetIdentity();
  return (
    <UserMenu label={identity?.fullName ? `Profile: ${identity.fullName}` : 'Profile'}>
      <Logout />
    </UserMenu>
  );
}

/** react-admin's app bar with the platform admins' tenant switcher beside the title. */
export function ConsoleAppBar() {
  return (
    <AppBar userMenu={<ConsoleUserMenu />}>
      <TitlePortal />
      <TenantSwitcher />
    </AppBar>
  );
}
