import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Box, IconButton, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';

/**
 * The API's address as customers' code reaches it: the console is served by the API, so the
 * page's own origin (behind a proxy too, as the browser got here through it).
 */
export const apiOrigin = () => window.location.origin;

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlSnippet(origin: string, key: string): string {
  const body = JSON.stringify({ session: 'test-1', text: 'Hello!' });
  return [
    `curl -s -X POST ${shellQuote(`${origin}/v1/messages?wait=10`)} \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${key}`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(body)}`,
  ].join('\n');
}

export function javascriptSnippet(origin: string, key: string): string {
  return [
    `const res = await fetch(${JSON.stringify(`${origin}/v1/messages?wait=10`)}, {`,
    `  method: 'POST',`,
    `  headers: { Authorization: ${JSON.stringify(`Bearer ${key}`)}, 'Content-Type': 'application/json' },`,
    `  body: JSON.stringify({ session: 'test-1', text: 'Hello!' }),`,
    `});`,
    `console.log(res.status, await res.json()); // 200 with the replies, or 202 while still queued`,
  ].join('\n');
}

function Snippet({ label, code, testId }: { label: string; code: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard outside a secure context; the text stays selectable
    }
  };
  return (
    <Box sx={{ mt: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography variant="subtitle2" sx={{ flex: 1 }}>
          {label}
        </Typography>
        <Tooltip title={copied ? 'Copied' : `Copy ${label}`}>
          <IconButton aria-label={`Copy ${label}`} onClick={copy} size="small">
            <ContentCopyIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
      <Box component="pre" data-testid={testId} sx={{ m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all', userSelect: 'all' }}>
        {code}
      </Box>
    </Box>
  );
}

/** Ready-to-run examples with the new key and this API's address, under the one-time key. */
export function ApiKeySnippets({ apiKey }: { apiKey: string }) {
  const origin = apiOrigin();
  return (
    <>
      <Snippet label="curl" code={curlSnippet(origin, apiKey)} testId="snippet-curl" />
      <Snippet label="JavaScript" code={javascriptSnippet(origin, apiKey)} testId="snippet-js" />
    </>
  );
}
