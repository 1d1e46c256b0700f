import { usePermissions } from 'react-admin';

/** Roles that see the pipeline and act on it: redrive, hand back (the API's OPERATORS). */
const OPERATORS = ['platform_admin', 'owner', 'admin', 'operator'];

export function canOperate(role: unknown): boolean {
  return OPERATORS.includes(role as string);
}

/** Whether the logged-in user may redrive and hand back; false while the role is loading. */
export function useCanOperate(): boolean {
  const { permissions } = usePermissions();
  return canOperate(permissions);
}
