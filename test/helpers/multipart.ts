/** multipart/form-data bodies for the upload endpoints (fetch sets the boundary). */

export interface FileFormOptions {
  /** Text fields, appended before the file in this order. */
  fields?: Record<string, string>;
  /** The file part's field name: `file` unless a test checks what happens without it. */
  field?: string;
  /** The file part's filename, which some answers echo. */
  filename?: string;
}

/** A form carrying `fields` and then one file part holding `bytes` (a string is sent as UTF-8). */
export function fileForm(bytes: string | Uint8Array, options: FileFormOptions = {}): FormData {
  const { fields = {}, field = 'file', filename = 'a.bin' } = options;
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  // A copy: BlobPart takes an ArrayBuffer-backed view, and a Buffer is typed as ArrayBufferLike.
  form.append(field, new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), filename);
  return form;
}
