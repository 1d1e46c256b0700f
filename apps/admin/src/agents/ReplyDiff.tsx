import { Box, Typography } from '@mui/material';
import { diffWords } from 'diff';

/**
 * A reply that changed since the last passing run, word by word: what the passing run said and
 * this run no longer says struck out, what is new underlined.
 */
export function ReplyDiff({ before, now }: { before: string; now: string }) {
  return (
    <Typography variant="body2" color="text.secondary" data-testid="reply-diff" sx={{ whiteSpace: 'pre-wrap' }}>
      Changed since the last passing run:{' '}
      {diffWords(before, now).map((part, i) =>
        part.removed ? (
          <Box component="del" key={i} data-testid="reply-diff-removed" sx={{ color: 'error.main', mr: 0.5 }}>
            {part.value}
          </Box>
        ) : part.added ? (
          <Box component="ins" key={i} data-testid="reply-diff-added" sx={{ color: 'success.dark' }}>
            {part.value}
          </Box>
        ) : (
          <span key={i}>{part.value}</span>
        ),
      )}
    </Typography>
  );
}
