import { FIELD_RULES } from '../../schemas/chat-request.schema.ts';

/** The subset of an Ajv error the message needs. */
export interface SchemaError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly message?: string | undefined;
}

/** `/history/0/role` -> `history[0].role` */
function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
}

/** A 400 message that names the offending field and says what it must be. */
export function validationMessage(error: SchemaError | undefined): string {
  if (error === undefined) return 'Invalid request body';
  if (error.keyword === 'required') {
    const missing = String(error.params['missingProperty'] ?? '');
    const base = fieldPath(error.instancePath);
    return `Invalid request: '${base === '' ? missing : `${base}.${missing}`}' is required`;
  }
  const field = fieldPath(error.instancePath);
  if (field === '') return 'Invalid request: the body must be a JSON object';
  const leaf = field.replace(/^.*[.\]]/, '');
  let rule: string;
  if (error.keyword === 'type') rule = `must be of type ${String(error.params['type'])}`;
  else rule = (Object.hasOwn(FIELD_RULES, leaf) ? FIELD_RULES[leaf] : undefined) ?? error.message ?? 'is invalid';
  return `Invalid request: '${field}' ${rule}`;
}
