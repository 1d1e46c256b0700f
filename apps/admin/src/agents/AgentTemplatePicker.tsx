import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { adminFetch } from '../api/api-fetch';
import type { AgentConfig } from './agent-config';

/** GET /v1/admin/agent-templates: complete configs the API also publishes in its tests. */
export interface AgentTemplate {
  id: string;
  name: string;
  description: string;
  config: AgentConfig;
}

export const BLANK_TEMPLATE = 'blank';

/** Cards to start a new agent from: a blank agent or one of the API's templates. */
export function AgentTemplatePicker({ picked, onPick }: { picked: string; onPick: (t: AgentTemplate | null) => void }) {
  const templates = useQuery({ queryKey: ['agent-templates'], queryFn: () => adminFetch<AgentTemplate[]>('/agent-templates'), staleTime: Infinity });
  const options: { id: string; name: string; description: string; template: AgentTemplate | null }[] = [
    { id: BLANK_TEMPLATE, name: 'Blank agent', description: 'An empty draft on the offline scripted provider: add fields, flows and tools yourself.', template: null },
    ...(templates.data ?? []).map((t) => ({ id: t.id, name: t.name, description: t.description, template: t })),
  ];
  return (
    <Box sx={{ px: 2, pt: 2 }}>
      <Typography variant="subtitle1" component="h2" gutterBottom>
        Start from
      </Typography>
      <Box role="radiogroup" aria-label="Start from" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(220px, 100%), 1fr))', gap: 1.5 }}>
        {options.map((o) => (
          <Card key={o.id} variant="outlined" sx={{ borderColor: picked === o.id ? 'primary.main' : undefined, borderWidth: picked === o.id ? 2 : 1 }}>
            <CardActionArea role="radio" aria-checked={picked === o.id} data-testid={`template-${o.id}`} onClick={() => onPick(o.template)} sx={{ height: '100%' }}>
              <CardContent>
                <Typography variant="subtitle2">{o.name}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {o.description}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
