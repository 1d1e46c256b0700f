import { Box } from '@mui/material';

/** Pretty JSON, read-only (tool parameter schemas, audit before/after). */
export function JsonBlock({ value, maxHeight = 320 }: { value: unknown; maxHeight?: number }) {
  return (
    <Box component="pre" sx={{ m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, overflow: 'auto', maxHeight }}>
      {value === undefined ? '—' : JSON.stringify(value, null, 2)}
    </Box>
  );
}
