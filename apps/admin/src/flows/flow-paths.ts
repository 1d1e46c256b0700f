// Which input of the flow editor a config JSON path from the API's 422 names, e.g.
// ['flows', 0, 'steps', 2, 'wait'] → draft.flows.0.steps.2.wait.duration.
import type { FlowForm, PredicateForm, StepForm, TriggerForm } from './flow-form.js';

type Path = (string | number)[];

/** The predicate input `rest` (the path after the predicate) names. */
function predicatePath(at: string, rest: Path, predicate: PredicateForm | undefined): string {
  const [key, sub] = rest;
  if (key === 'equals') {
    const i = predicate?.equals.findIndex((e) => e.field === sub) ?? -1;
    return i >= 0 ? `${at}.equals.${i}.field` : `${at}.equals`;
  }
  if (key === 'known') return `${at}.known`;
  // A bare condition name, `condition` or an invalid predicate: the condition names input.
  return `${at}.conditions`;
}

function triggerPath(at: string, rest: Path, trigger: TriggerForm | undefined): string {
  const [key] = rest;
  switch (key) {
    case 'extract':
    case 'event':
    case 'after':
    case 'silence':
      return `${at}.${key}`;
    case 'repeat':
      return trigger?.repeat === 'cooldown' ? `${at}.cooldown` : `${at}.repeat`;
    case undefined:
      // The trigger as a whole (no kind, two kinds): its kind select.
      return `${at}.kind`;
    default:
      // message and mention phrases share one input.
      return `${at}.message`;
  }
}

function stepPath(at: string, rest: Path, step: StepForm | undefined): string | undefined {
  const [key, a, b] = rest;
  switch (key) {
    case undefined:
      return `${at}.id`;
    case 'ask': {
      const i = step?.askList.findIndex((x) => x.slug === a) ?? -1;
      return i >= 0 ? `${at}.askList.${i}.text` : undefined;
    }
    case 'branches':
      if (typeof a !== 'number') return undefined;
      if (b === 'if') return predicatePath(`${at}.branches.${a}.predicate`, rest.slice(3), step?.branches[a]?.predicate);
      return b === 'when' || b === 'then' ? `${at}.branches.${a}.${b}` : `${at}.branches.${a}.then`;
    case 'do':
      return `${at}.action`;
    case 'if':
      return predicatePath(`${at}.predicate`, rest.slice(1), step?.predicate);
    case 'wait':
      if (a === 'upTo') return `${at}.wait.upTo`;
      if (a !== undefined || step?.wait.mode === 'event') return `${at}.wait.event`;
      return `${at}.wait.duration`;
    case 'businessHours':
      return `${at}.hours.${typeof a === 'string' && ['start', 'end', 'days', 'timeZone'].includes(a) ? a : 'start'}`;
    case 'with':
    case 'then':
    case 'else':
    case 'onFail':
      // `then: { flow }` errors end in 'flow': the target select all the same.
      return `${at}.${key}`;
    default:
      return `${at}.${key}`;
  }
}

/** `path` starts after ['flows', index]. */
export function flowFormPath(index: number, path: Path, flow: FlowForm | undefined): string | undefined {
  const at = `draft.flows.${index}`;
  const [key, i, ...rest] = path;
  if (key === undefined) return `${at}.id`;
  if (key === 'steps' && typeof i === 'number') return stepPath(`${at}.steps.${i}`, rest, flow?.steps[i]);
  if (key === 'on') return typeof i === 'number' ? triggerPath(`${at}.on.${i}`, rest, flow?.on[i]) : undefined;
  if (key === 'steps') return undefined;
  return `${at}.${key}`;
}
