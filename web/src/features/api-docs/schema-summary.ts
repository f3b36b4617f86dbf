/**
 * JSON Schema (as z.toJSONSchema writes it into the OpenAPI document) in a few words for the API
 * reference: a type and its bounds ("number, > 0, ≤ 10000000"), and the fields of an object.
 */
export type JsonSchema = Record<string, unknown>;

const isSchema = (value: unknown): value is JsonSchema => value !== null && typeof value === 'object' && !Array.isArray(value);

export function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.filter(isSchema).map(typeOf).join(' | ');
  }
  if (schema.type === 'array') return `array of ${isSchema(schema.items) ? typeOf(schema.items) : 'any'}`;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (typeof schema.type === 'string') return schema.format ? `${schema.type} (${String(schema.format)})` : schema.type;
  return 'any';
}

/** The bounds of a value: "> 0", "≤ 100", "1-32 characters", "pattern ^...$", "default 20". */
export function boundsOf(schema: JsonSchema): string[] {
  const bounds: string[] = [];
  if (typeof schema.exclusiveMinimum === 'number') bounds.push(`> ${schema.exclusiveMinimum}`);
  if (typeof schema.minimum === 'number') bounds.push(`≥ ${schema.minimum}`);
  if (typeof schema.exclusiveMaximum === 'number') bounds.push(`< ${schema.exclusiveMaximum}`);
  if (typeof schema.maximum === 'number') bounds.push(`≤ ${schema.maximum}`);
  if (schema.type === 'integer') bounds.push('whole number');
  if (typeof schema.minLength === 'number') bounds.push(`at least ${schema.minLength} characters`);
  if (typeof schema.maxLength === 'number') bounds.push(`at most ${schema.maxLength} characters`);
  if (typeof schema.pattern === 'string' && schema.format === undefined) bounds.push(`pattern ${schema.pattern}`);
  if ('default' in schema) bounds.push(`default ${JSON.stringify(schema.default)}`);
  return bounds;
}

export interface Field {
  name: string;
  type: string;
  required: boolean;
  bounds: string[];
  description?: string;
}

/** The top-level fields of an object schema (none for other schemas). */
export function fieldsOf(schema: JsonSchema | undefined): Field[] {
  if (!schema || !isSchema(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(schema.properties)
    .filter((entry): entry is [string, JsonSchema] => isSchema(entry[1]))
    .map(([name, field]) => ({
      name,
      type: typeOf(field),
      required: required.has(name),
      bounds: boundsOf(field),
      ...(typeof field.description === 'string' ? { description: field.description } : {}),
    }));
}
