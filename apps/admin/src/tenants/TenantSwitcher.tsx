import { MenuItem, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useGetList, useNotify, usePermissions } from 'react-admin';
import { pickTenant, readPickedTenant } from '../api/tenant-pick';

const ALL = '';

/**
 * Platform admins only, in the app bar: which tenant the console shows. Every list, page and
 * dashboard then reads that tenant (X-Tenant-Id); "All tenants" shows the whole platform.
 */
export function TenantSwitcher() {
  const { permissions } = usePermissions();
  const platformAdmin = permissions === 'platform_admin';
  const tenants = useGetList<{ id: string; name: string }>(
    'tenants',
    { pagination: { page: 1, perPage: 200 }, sort: { field: 'name', order: 'ASC' } },
    { enabled: platformAdmin },
  );
  const [picked, setPicked] = useState(readPickedTenant() ?? ALL);
  const queryClient = useQueryClient();
  const notify = useNotify();
  if (!platformAdmin) return null;

  const onChange = (tenantId: string) => {
    pickTenant(tenantId || undefined);
    setPicked(tenantId);
    // Everything cached was read for the previous pick.
    void queryClient.invalidateQueries();
    const name = tenants.data?.find((t) => t.id === tenantId)?.name;
    notify(name ? `Showing tenant “${name}”` : 'Showing all tenants', { type: 'info' });
  };

  return (
    <TextField
      select
      size="small"
      label="Tenant"
      value={tenants.data ? picked : ALL}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(tenants.error)}
      helperText={tenants.error ? `Could not load tenants: ${tenants.error.message}` : undefined}
      data-testid="tenant-switcher"
      sx={{ minWidth: 220, mx: 2, '& .MuiInputBase-root': { bgcolor: 'background.paper' } }}
    >
      <MenuItem value={ALL}>All tenants</MenuItem>
      {(tenants.data ?? []).map((t) => (
        <MenuItem key={t.id} value={t.id}>
          {t.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
