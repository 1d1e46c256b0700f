import { DateField, NumberField, TextField } from 'react-admin';
import { OutcomeCodes } from './OutcomeCodes';

/** The usage columns shared by the Turns list and a session's turns. */
export const turnColumns = [
  <DateField key="createdAt" source="createdAt" label="At" showTime />,
  <TextField key="model" source="model" />,
  <NumberField key="llmCalls" source="llmCalls" label="LLM calls" />,
  <NumberField key="inputTokens" source="inputTokens" label="Tokens in" />,
  <NumberField key="outputTokens" source="outputTokens" label="Tokens out" />,
  <NumberField key="totalMs" source="totalMs" label="Latency (ms)" />,
  <OutcomeCodes key="outcomes" label="Outcomes" />,
];
