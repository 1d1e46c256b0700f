import ChatBubbleIcon from '@mui/icons-material/ChatBubbleOutline';
import { Menu } from 'react-admin';
import { InboxMenuItem } from '../inbox/InboxMenuItem';
import { QueuesMenuItem } from '../queues/QueuesMenuItem';

/** The resources the user's role may open, then the playground. */
export function ConsoleMenu() {
  return (
    <Menu>
      <Menu.DashboardItem />
      <InboxMenuItem />
      <Menu.ResourceItems />
      <QueuesMenuItem />
      <Menu.Item to="/playground" primaryText="Playground" leftIcon={<ChatBubbleIcon />} />
    </Menu>
  );
}
