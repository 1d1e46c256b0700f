import InboxIcon from '@mui/icons-material/Inbox';
import { Badge } from '@mui/material';
import { Menu } from 'react-admin';
import { inboxApi } from './inbox-api';
import { usePolled } from './usePolled';

/** Less often than the inbox page itself: this runs on every page of the console. */
const MENU_POLL_MS = 10_000;

/** The Inbox entry, with the number of unread customer messages across the waiting conversations. */
export function InboxMenuItem() {
  const { data } = usePolled(inboxApi.list, MENU_POLL_MS);
  const unread = data?.reduce((n, item) => n + item.unread, 0) ?? 0;
  return (
    <Menu.Item
      to="/inbox"
      primaryText="Inbox"
      leftIcon={
        <Badge badgeContent={unread} color="error" max={99}>
          <InboxIcon />
        </Badge>
      }
    />
  );
}
