/**
 * Modal dialogs on the native <dialog> element: focus is trapped and returned by the browser, Esc
 * closes. `confirmDialog` resolves true only on the confirm button; `openDialog` shows any content
 * and gives it a close function; `noticeDialog` shows content with one closing button;
 * `formDialog` holds one form with Cancel and submit buttons.
 */
import { h, replaceChildren } from '../dom.js';
import { actionForm, errorLine, type ErrorLine } from './forms.js';

export function openDialog(
  title: string,
  build: (close: () => void) => Node,
  options: { wide?: boolean } = {},
): { dialog: HTMLDialogElement; close: () => void } {
  const titleId = `dlg-${Math.random().toString(36).slice(2)}`;
  const dialog = h('dialog', { class: options.wide ? 'dialog wide' : 'dialog', 'aria-labelledby': titleId });
  const close = () => {
    dialog.close();
    dialog.remove();
  };
  dialog.addEventListener('cancel', (e) => {
    e.preventDefault();
    close();
  });
  dialog.append(h('h2', { id: titleId }, title), build(close));
  document.body.append(dialog);
  dialog.showModal();
  return { dialog, close };
}

export function confirmDialog(options: { title: string; body: string; confirm: string; danger?: boolean }): Promise<boolean> {
  return new Promise((resolve) => {
    let answered = false;
    const finish = (value: boolean, close: () => void) => {
      answered = true;
      close();
      resolve(value);
    };
    const { dialog } = openDialog(options.title, (close) =>
      h(
        'div',
        {},
        h('p', {}, options.body),
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', class: 'secondary', autofocus: true, on: { click: () => finish(false, close) } }, 'Cancel'),
          h(
            'button',
            { type: 'button', class: options.danger ? 'danger' : 'primary', on: { click: () => finish(true, close) } },
            options.confirm,
          ),
        ),
      ),
    );
    dialog.addEventListener('close', () => {
      if (!answered) resolve(false);
    });
  });
}

/** Shows `content` (a secret shown once, a refusal) with one button, labelled `button`, that closes the dialog. */
export function noticeDialog(title: string, button: string, ...content: Node[]): void {
  openDialog(title, (close) =>
    h(
      'div',
      {},
      ...content,
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', on: { click: close } }, button)),
    ),
  );
}

/** What a form dialog's builder may do besides building its fields. */
export interface FormDialogControls {
  close: () => void;
  /** The line under the fields where a refusal of `submit` appears by itself. */
  error: ErrorLine;
  /**
   * Replaces the form with what it produced (a secret shown once) and a focused Done button that
   * closes the dialog, then runs `done`. Closing removes the dialog, so the secret leaves the page.
   */
  showOutcome: (done: () => void, ...content: Node[]) => void;
}

export interface FormDialogContent {
  /** In order; the error line and the Cancel and submit buttons follow them. */
  fields: Node[];
  submitLabel: string;
  /** Runs on submit with the submit button disabled (one request per click). */
  submit: () => Promise<void>;
}

export function formDialog(title: string, build: (controls: FormDialogControls) => FormDialogContent): void {
  openDialog(title, (close) => {
    const error = errorLine();
    const showOutcome = (done: () => void, ...content: Node[]) => {
      const finish = h('button', { type: 'button', class: 'primary', on: { click: () => (close(), done()) } }, 'Done');
      replaceChildren(form, ...content, h('div', { class: 'actions' }, finish));
      finish.focus();
    };
    const { fields, submitLabel, submit } = build({ close, error, showOutcome });
    const button = h('button', { type: 'submit', class: 'primary' }, submitLabel);
    const cancel = h('button', { type: 'button', class: 'secondary', on: { click: close } }, 'Cancel');
    const form = actionForm({ button, error, action: submit }, ...fields, error.el, h('div', { class: 'actions' }, cancel, button));
    return form;
  });
}
