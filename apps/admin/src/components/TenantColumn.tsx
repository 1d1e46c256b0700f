import { ReferenceField, TextField, usePermissions } from 'react-admin';
import { readPickedTenant } from '../api/tenant-pick';

/** True when the lists show every tenant's rows: a platform admin with no tenant picked. */
export function useAllTenants(): boolean {
  const { permissions } = usePermissions();
  return permissions === 'platform_admin' && readPickedTenant() === undefined;
}

/**
 * The Tenant column of a list that shows every tenant's rows, or nothing (a Datagrid counts
 * each child as a column, so the column is left out rather than rendered empty).
 */
export function tenantColumn(allTenants: boolean) {
  if (!allTenants) return null;
  return (
    <ReferenceField key="tenant" source="tenantId" reference="tenants" label="Tenant" link={false} sortable={false} emptyText="—">
      <TextField source="name" />
    </ReferenceField>
  );
}
