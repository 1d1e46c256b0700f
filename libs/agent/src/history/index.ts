export { eventsToHistory, historyToEvents, serializeResult } from './convert';
export { HistoryFormatError } from './errors';
export {
  TOOL_CALL_ID_META,
  type EventSource,
  type HistoryEvent,
  type MessageEvent,
  type Participant,
  type StatusEvent,
  type ToolEvent,
} from './events';
