import { Typography } from '@mui/material';
import { CheckboxGroupInput, useGetList } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { PublishErrorAt } from './publish-error';

interface ToolRecord {
  id: string;
  toolId: string;
  kind: 'code' | 'http';
  description: string;
}

/** The agent's tool allow-list, picked from the registered code tools and the tenant's HTTP tools. */
export function AllowedToolsInput() {
  const { data, isPending, error } = useGetList<ToolRecord>('tools', { pagination: { page: 1, perPage: 100 }, sort: { field: 'toolId', order: 'ASC' } });
  const picked = (useWatch({ name: 'draft.tools' }) ?? []) as string[];
  if (isPending) return <Typography color="text.secondary">Loading tools…</Typography>;
  if (error) return <Typography color="error">Could not load the tools: {error.message}</Typography>;
  const known = new Set((data ?? []).map((t) => t.toolId));
  const choices = [
    ...(data ?? []).map((t) => ({ id: t.toolId, name: `${t.toolId} — ${t.kind === 'code' ? 'code' : 'HTTP'}${t.description ? `: ${t.description}` : ''}` })),
    ...picked.filter((id) => !known.has(id)).map((id) => ({ id, name: `${id} (no such tool)` })),
  ];
  return (
    <>
      <PublishErrorAt prefix={['tools']} />
      <CheckboxGroupInput
        source="draft.tools"
        label="Tools this agent may use"
        choices={choices}
        row={false}
        helperText={choices.length ? 'Flows and steps can narrow this list further' : 'No tools: start a worker to register code tools, or create an HTTP tool'}
      />
    </>
  );
}
