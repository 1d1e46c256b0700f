import { ReferenceInput, required, SelectInput, usePermissions } from 'react-admin';
import { readPickedTenant } from '../api/tenant-pick';

/**
 * Platform admins belong to no tenant: what they create is for the tenant they pick here.
 * Tenant users never see it (the API puts their rows in their own tenant). Starts on the tenant
 * picked in the app bar.
 */
export function TenantInput() {
  const { permissions } = usePermissions();
  if (permissions !== 'platform_admin') return null;
  return (
    <ReferenceInput source="tenantId" reference="tenants" sort={{ field: 'name', order: 'ASC' }}>
      <SelectInput optionText="name" label="Tenant" validate={required()} defaultValue={readPickedTenant()} />
    </ReferenceInput>
  );
}
