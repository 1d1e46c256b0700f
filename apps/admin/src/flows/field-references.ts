// Where a draft uses an agent field: steps that collect it or override how it is asked,
// predicates (if steps and branches) that test it, triggers that extract it. Deleting a field
// lists these and can remove them, so the draft never keeps a reference the editor hides.
import type { FlowForm, PredicateForm, StepForm } from './flow-form.js';

export interface FieldReference {
  /** As people read it: `Flow “booking”, step “ask”: collects it`. */
  where: string;
  /** The form path of the input holding the reference. */
  path: string;
}

const flowName = (f: FlowForm, i: number) => `Flow “${f.name || f.id || i + 1}”`;
const stepName = (s: StepForm, j: number) => `step “${s.id || j + 1}”`;

function predicateUses(p: PredicateForm | undefined, slug: string): boolean {
  return !!p && (p.equals.some((e) => e.field === slug) || p.known.includes(slug));
}

/** Every place of `flows` that names the field `slug`, in the order the editor shows them. */
export function fieldReferences(flows: readonly FlowForm[], slug: string): FieldReference[] {
  const out: FieldReference[] = [];
  if (!slug) return out;
  flows.forEach((flow, i) => {
    flow.on.forEach((t, k) => {
      if (t.extract.includes(slug)) out.push({ where: `${flowName(flow, i)}, trigger ${k + 1}: extracts it`, path: `draft.flows.${i}.on.${k}.extract` });
    });
    flow.steps.forEach((step, j) => {
      const at = `${flowName(flow, i)}, ${stepName(step, j)}`;
      const base = `draft.flows.${i}.steps.${j}`;
      if (step.collect.includes(slug)) out.push({ where: `${at}: collects it`, path: `${base}.collect` });
      if (step.askList.some((a) => a.slug === slug)) out.push({ where: `${at}: says how to ask for it`, path: `${base}.askList` });
      if (step.kind === 'if' && predicateUses(step.predicate, slug)) out.push({ where: `${at}: its condition tests it`, path: `${base}.predicate` });
      step.branches.forEach((b, k) => {
        if (predicateUses(b.predicate, slug)) out.push({ where: `${at}, branch ${k + 1}: tests it`, path: `${base}.branches.${k}.predicate` });
      });
    });
  });
  return out;
}

/** One form value to set: `path` (e.g. `draft.flows.0.steps.1.collect`) gets `value`. */
export interface FormEdit {
  path: string;
  value: unknown;
}

/**
 * The form edits that take every reference to `slug` out of `flows`, each at the narrowest input
 * (a step's collect list, its ask overrides, a predicate's equals and known lists, a trigger's
 * extract list), so the editor's nested lists keep their rows.
 */
export function removeFieldReferenceEdits(flows: readonly FlowForm[], slug: string): FormEdit[] {
  const edits: FormEdit[] = [];
  const predicate = (p: PredicateForm | undefined, at: string) => {
    if (!p) return;
    if (p.equals.some((e) => e.field === slug)) edits.push({ path: `${at}.equals`, value: p.equals.filter((e) => e.field !== slug) });
    if (p.known.includes(slug)) edits.push({ path: `${at}.known`, value: p.known.filter((k) => k !== slug) });
  };
  flows.forEach((flow, i) => {
    flow.on.forEach((t, k) => {
      if (t.extract.includes(slug)) edits.push({ path: `draft.flows.${i}.on.${k}.extract`, value: t.extract.filter((e) => e !== slug) });
    });
    flow.steps.forEach((step, j) => {
      const base = `draft.flows.${i}.steps.${j}`;
      if (step.collect.includes(slug)) edits.push({ path: `${base}.collect`, value: step.collect.filter((c) => c !== slug) });
      if (step.askList.some((a) => a.slug === slug)) edits.push({ path: `${base}.askList`, value: step.askList.filter((a) => a.slug !== slug) });
      predicate(step.predicate, `${base}.predicate`);
      step.branches.forEach((b, k) => predicate(b.predicate, `${base}.branches.${k}.predicate`));
    });
  });
  return edits;
}
