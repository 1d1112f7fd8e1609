import { ApiError } from '../api/client';

export interface MappedErrors {
  /** Form field → message, in the language of the request. */
  fields: Record<string, string>;
  /** What could not be placed on a field. */
  form: string | null;
}

export interface MapOptions {
  /** Server field name → form field name, where they differ. */
  aliases?: Record<string, string>;
  /** Where a 409 answer without fields belongs (e.g. the field of work for "one profile per category"). */
  conflictField?: string;
  /** Where other statuses without fields belong (e.g. 403 "not your field" → the categories). */
  statusFields?: Record<number, string>;
}

/**
 * Places a failed save's messages on the form: each `payload.fields` entry on its field when the
 * form has it, the rest (and errors without fields) as one message for the whole form.
 */
export function mapServerErrors(err: unknown, known: readonly string[], opts: MapOptions = {}): MappedErrors {
  const out: MappedErrors = { fields: {}, form: null };
  if (!(err instanceof ApiError)) {
    out.form = (err as Error)?.message || null;
    return out;
  }
  const rest: string[] = [];
  const entries = Object.entries(err.fields ?? {});
  for (const [name, msg] of entries) {
    const field = opts.aliases?.[name] ?? name;
    if (known.includes(field)) {
      if (!out.fields[field]) out.fields[field] = msg;
    } else if (!rest.includes(msg)) rest.push(msg);
  }
  if (entries.length === 0) {
    const field = err.status === 409 ? opts.conflictField ?? opts.statusFields?.[409] : opts.statusFields?.[err.status];
    if (field && known.includes(field)) {
      out.fields[field] = err.message;
      return out;
    }
    out.form = err.message;
    return out;
  }
  if (rest.length) out.form = rest.join(' · ');
  return out;
}
