/** Labelled form fields and the error line a form shows; every field has a visible label (WCAG 1.3.1, 3.3.2). */
import { ApiError } from '../api.js';
import { h, uid } from '../dom.js';

export interface FieldOptions {
  label: string;
  name: string;
  type?: string;
  value?: string;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  placeholder?: string;
  multiline?: boolean;
  rows?: number;
}

export function field(o: FieldOptions): { wrapper: HTMLElement; input: HTMLInputElement | HTMLTextAreaElement } {
  const id = uid(o.name);
  const hintId = o.hint ? `${id}-hint` : undefined;
  const common = {
    id,
    name: o.name,
    required: o.required ?? false,
    autocomplete: o.autocomplete,
    placeholder: o.placeholder,
    'aria-describedby': hintId,
  };
  const input = o.multiline
    ? h('textarea', { ...common, rows: o.rows ?? 3 }, o.value ?? '')
    : h('input', { ...common, type: o.type ?? 'text', value: o.value ?? '' });
  const wrapper = h(
    'div',
    { class: 'field' },
    h('label', { for: id }, o.label),
    input,
    hintId ? h('p', { id: hintId, class: 'hint' }, o.hint) : null,
  );
  return { wrapper, input };
}

export function select(
  label: string,
  name: string,
  options: Array<[value: string, text: string]>,
  value?: string,
): { wrapper: HTMLElement; input: HTMLSelectElement } {
  const id = uid(name);
  const input = h('select', { id, name }, ...options.map(([v, t]) => h('option', { value: v, selected: v === value }, t)));
  return { wrapper: h('div', { class: 'field' }, h('label', { for: id }, label), input), input };
}

export interface ErrorLine {
  el: HTMLElement;
  show: (err: unknown) => void;
  clear: () => void;
}

/** The line under a form where refusals appear (announced to screen readers). */
export function errorLine(): ErrorLine {
  const el = h('p', { class: 'form-error', role: 'alert' });
  return {
    el,
    show(err) {
      el.textContent = err instanceof ApiError ? err.message : 'Something went wrong; try again';
    },
    clear() {
      el.textContent = '';
    },
  };
}

/** Disables the submit button while `work` runs, so a double click sends one request. */
export async function busy<T>(button: HTMLButtonElement, work: () => Promise<T>): Promise<T> {
  button.disabled = true;
  try {
    return await work();
  } finally {
    button.disabled = false;
  }
}

/** Runs `action` with `button` disabled (see busy); a refusal is shown on `error` rather than thrown. */
export function attempt(button: HTMLButtonElement, error: ErrorLine, action: () => Promise<void>): Promise<void> {
  return busy(button, async () => {
    try {
      await action();
    } catch (err) {
      error.show(err);
    }
  });
}

export interface ActionFormOptions {
  /** Its submit button, disabled while `action` runs. */
  button: HTMLButtonElement;
  error: ErrorLine;
  action: () => Promise<void>;
}

/** A form whose submission is an `attempt` of `action`; the page does not reload. */
export function actionForm({ button, error, action }: ActionFormOptions, ...children: Node[]): HTMLFormElement {
  return h(
    'form',
    {
      class: 'stack',
      on: {
        submit: (e) => {
          e.preventDefault();
          void attempt(button, error, action);
        },
      },
    },
    ...children,
  );
}
