import { lazy, Suspense } from 'react';
import { Route } from 'react-router-dom';

// Loaded when first opened: the console's first screen does not pay for the inbox.
const InboxPage = lazy(() => import('./InboxPage').then((m) => ({ default: m.InboxPage })));
const ConversationPage = lazy(() => import('./ConversationPage').then((m) => ({ default: m.ConversationPage })));

/** The inbox's routes, for App's CustomRoutes (every role reads; the pages hide actions from viewers). */
export function inboxRoutes() {
  return [
    <Route key="inbox" path="/inbox" element={<Suspense fallback={null}><InboxPage /></Suspense>} />,
    <Route key="inbox-conversation" path="/inbox/:id" element={<Suspense fallback={null}><ConversationPage /></Suspense>} />,
  ];
}
