import { Autocomplete, Box, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useGetList, useGetOne, useNotify, usePermissions } from 'react-admin';
import { refetchEverything } from '../api/refetch-everything';
import { pickTenant, readPickedTenant } from '../api/tenant-pick';

interface TenantOption {
  id: string;
  name: string;
}

const ALL: TenantOption = { id: '', name: 'All tenants' };

/**
 * Platform admins only, in the app bar: which tenant the console shows. Every list, page and
 * dashboard then reads that tenant (X-Tenant-Id); "All tenants" shows the whole platform.
 * Tenants are searched by name on the server, so any number of them can be picked from.
 */
export function TenantSwitcher() {
  const { permissions } = usePermissions();
  const platformAdmin = permissions === 'platform_admin';
  const [pickedId, setPickedId] = useState(readPickedTenant() ?? '');
  const [search, setSearch] = useState('');
  const tenants = useGetList<TenantOption>(
    'tenants',
    { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: search ? { q: search } : {} },
    { enabled: platformAdmin, placeholderData: (previous) => previous },
  );
  const picked = useGetOne<TenantOption>('tenants', { id: pickedId }, { enabled: platformAdmin && pickedId !== '' });
  const queryClient = useQueryClient();
  const notify = useNotify();
  // A picked tenant that was deleted since: every call would be refused (unknown-tenant), so forget it.
  const pickGone = pickedId !== '' && picked.isError;
  useEffect(() => {
    if (!pickGone) return;
    pickTenant(undefined);
    setPickedId('');
    void refetchEverything(queryClient);
    notify('The picked tenant no longer exists: showing all tenants', { type: 'warning' });
  }, [pickGone, queryClient, notify]);
  if (!platformAdmin) return null;

  const value = pickedId && picked.data ? picked.data : ALL;
  const options = [ALL, ...(tenants.data ?? [])];
  if (value.id && !options.some((o) => o.id === value.id)) options.push(value);
  const onPick = (tenant: TenantOption | null) => {
    const next = tenant ?? ALL;
    pickTenant(next.id || undefined);
    setPickedId(next.id);
    setSearch('');
    void refetchEverything(queryClient);
    notify(next.id ? `Showing tenant “${next.name}”` : 'Showing all tenants', { type: 'info' });
  };

  return (
    <Box sx={{ width: { xs: 140, sm: 220, md: 280 }, flex: 'none', mx: { xs: 0.5, sm: 1 } }} data-testid="tenant-switcher">
      <Autocomplete<TenantOption, false, true>
        size="small"
        disableClearable
        openOnFocus
        options={options}
        value={value}
        getOptionLabel={(t) => t.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        filterOptions={(options) => options}
        loading={tenants.isFetching}
        onInputChange={(_, text, reason) => reason === 'input' && setSearch(text)}
        onChange={(_, tenant) => onPick(tenant)}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Tenant"
            error={Boolean(tenants.error)}
            helperText={tenants.error ? `Could not load tenants: ${tenants.error.message}` : undefined}
            sx={{ bgcolor: 'background.paper', borderRadius: 1 }}
          />
        )}
      />
    </Box>
  );
}
