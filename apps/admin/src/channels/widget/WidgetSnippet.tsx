import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Box, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useRecordContext } from 'react-admin';
import { DEFAULT_WIDGET_SETTINGS, widgetSnippet, type WidgetSettings } from './widget-settings';

/** The line to paste into the site's pages, with a copy button (saved settings; save to update). */
export function WidgetSnippet() {
  const record = useRecordContext<{ kind?: string; publicId?: string | null; settings?: Partial<WidgetSettings> }>();
  const [copied, setCopied] = useState(false);
  if (record?.kind !== 'widget' || !record.publicId) return null;
  const snippet = widgetSnippet(window.location.origin, record.publicId, { ...DEFAULT_WIDGET_SETTINGS, ...record.settings });
  return (
    <Box sx={{ width: '100%' }}>
      <Typography variant="subtitle1">Snippet</Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        Paste this line before &lt;/body&gt; on every page of an allowed origin. The widget id is public, not a secret.
      </Typography>
      <Stack direction="row" spacing={1} alignItems="flex-start">
        <Box component="pre" data-testid="widget-snippet" sx={{ flex: 1, m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 13 }}>
          {snippet}
        </Box>
        <Tooltip title={copied ? 'Copied' : 'Copy'}>
          <IconButton
            aria-label="Copy snippet"
            onClick={() => void navigator.clipboard?.writeText(snippet).then(() => setCopied(true))}
          >
            <ContentCopyIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
    </Box>
  );
}
