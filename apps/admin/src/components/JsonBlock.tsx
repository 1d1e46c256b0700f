import { Box } from '@mui/material';

/**
 * Pretty JSON, read-only (tool parameter schemas, audit before/after). It scrolls when long or
 * wide, so it takes keyboard focus (a keyboard user scrolls it with the arrow keys) and names
 * itself for screen readers.
 */
export function JsonBlock({ value, maxHeight = 320, label = 'JSON' }: { value: unknown; maxHeight?: number; label?: string }) {
  return (
    <Box component="pre" tabIndex={0} role="region" aria-label={label} sx={{ m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, overflow: 'auto', maxHeight }}>
      {value === undefined ? '—' : JSON.stringify(value, null, 2)}
    </Box>
  );
}
