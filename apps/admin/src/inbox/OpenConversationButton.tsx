import QuestionAnswerIcon from '@mui/icons-material/QuestionAnswer';
import { Button } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { Link } from 'react-router-dom';

/** From the session page to its conversation in the inbox: take over, reply, notes, hand back. */
export function OpenConversationButton() {
  const record = useRecordContext<{ id: string }>();
  if (!record) return null;
  return (
    <Button component={Link} to={`/inbox/${record.id}`} startIcon={<QuestionAnswerIcon />} data-testid="open-conversation">
      Open in the inbox
    </Button>
  );
}
