import { Box, Button } from '@mui/material';
import { useState } from 'react';

/** Result text shown before "Show all": tool results can be whole API answers. */
export const RESULT_PREVIEW_CHARS = 300;

/** A tool's result as the model read it: pretty JSON when it is JSON, cut short until expanded. */
export function ToolCallResult({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const pretty = prettyJson(text);
  const long = pretty.length > RESULT_PREVIEW_CHARS;
  return (
    <Box>
      {/* Scrolls once expanded: focusable, so a keyboard user can scroll it too. */}
      <Box component="pre" data-testid="tool-result" tabIndex={0} role="region" aria-label="Tool result" sx={{ m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: open ? 480 : undefined, overflow: 'auto' }}>
        {open || !long ? pretty : `${pretty.slice(0, RESULT_PREVIEW_CHARS)}…`}
      </Box>
      {long && (
        <Button size="small" onClick={() => setOpen(!open)}>
          {open ? 'Show less' : `Show all (${pretty.length.toLocaleString()} characters)`}
        </Button>
      )}
    </Box>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
