import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A list's "nothing here yet" page that says where rows come from (react-admin's `empty`). */
export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Box sx={{ textAlign: 'center', py: 8, px: 2, maxWidth: 560, mx: 'auto' }} data-testid="empty-state">
      <Typography variant="h6" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary">{children}</Typography>
      {action ? <Box sx={{ mt: 2 }}>{action}</Box> : null}
    </Box>
  );
}
