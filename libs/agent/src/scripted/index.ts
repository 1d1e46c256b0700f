export { JSON_RECORD_LIMIT, ScriptedProvider, type ScriptedProviderOptions, type ScriptFn, type ScriptReply } from './scripted-provider';
export { parseScript, ScriptError, type ScriptJson, type ScriptRule, type ScriptToolCall, type ScriptFailure } from './rules';
export { conciergeScript } from './concierge-script';
export { seededRandom } from './seeded-random';
