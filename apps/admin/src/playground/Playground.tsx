import { Alert, Box, Card, CardContent, MenuItem, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { Title, useGetList, usePermissions } from 'react-admin';
import { canWrite } from '../api/roles';
import { PlaygroundChat } from './PlaygroundChat';

/** Chat with any agent's saved draft or published versions (the editor's Playground tab also runs unsaved changes). */
export function Playground() {
  const { permissions } = usePermissions();
  const agents = useGetList<{ id: string; name: string; publishedVersion: number | null }>('agents', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'name', order: 'ASC' },
  });
  const [agentId, setAgentId] = useState('');

  if (permissions !== undefined && !canWrite(permissions)) {
    return (
      <Box sx={{ p: 2 }}>
        <Title title="Playground" />
        <Alert severity="info">The playground runs the agent's real tools: it needs an owner or admin.</Alert>
      </Box>
    );
  }

  return (
    <Box sx={{ p: 2 }}>
      <Title title="Playground" />
      <Card>
        <CardContent>
          <Stack spacing={2}>
            <TextField select label="Agent" value={agentId} onChange={(e) => setAgentId(e.target.value)} sx={{ maxWidth: 320 }} size="small">
              {(agents.data ?? []).map((a) => (
                <MenuItem key={a.id} value={a.id}>
                  {a.name} {a.publishedVersion ? `(v${a.publishedVersion} live)` : '(not published)'}
                </MenuItem>
              ))}
            </TextField>
            {agentId && <PlaygroundChat key={agentId} agentId={agentId} />}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
