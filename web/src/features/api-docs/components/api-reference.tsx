/**
 * The API reference: GET /api/openapi.json rendered as a page, grouped by tag. Each endpoint shows
 * its method, path, summary, who may call it, its parameters, the fields of its request body with
 * their types and bounds, and its answers. Plain React from the document (no swagger-ui: it is
 * heavy and needs inline scripts the Content-Security-Policy forbids).
 */
import type { OpenApiDocument, OpenApiOperation, OpenApiParameter, OpenApiResponse } from '@papertrade/domain/api/openapi-document';
import { FetchError } from '../../../components/ui/fetch-error';
import { useOpenApi, OPENAPI_PATH } from '../api/get-openapi';
import { boundsOf, fieldsOf, typeOf, type Field, type JsonSchema } from '../schema-summary';
import './api-reference.css';

const accessLabels: Record<OpenApiOperation['x-access'], string> = {
  public: 'Public',
  optional: 'Public (signed in: your own data)',
  'signed-in': 'Signed in',
  premium: 'Premium',
  admin: 'Admin',
  'admin-or-auditor': 'Admin or auditor',
};

interface Entry {
  method: string;
  path: string;
  op: OpenApiOperation;
}

function byTag(doc: OpenApiDocument): Array<[string, Entry[]]> {
  const groups = new Map<string, Entry[]>();
  for (const tag of doc.tags ?? []) groups.set(tag.name, []);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags[0] ?? 'Other';
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, op }]);
    }
  }
  return [...groups].filter(([, entries]) => entries.length > 0);
}

/** A `$ref` to a shared parameter or response, looked up in the document. */
function resolved<T>(doc: OpenApiDocument, value: T | { $ref: string }, kind: 'parameters' | 'responses'): T | undefined {
  if (value && typeof value === 'object' && '$ref' in value) {
    const name = value.$ref.split('/').pop() ?? '';
    return doc.components[kind][name] as T | undefined;
  }
  return value;
}

/** Prose of the document with its `code` spans as <code>. */
function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}
    </>
  );
}

function FieldRows({ fields }: { fields: Field[] }) {
  return (
    <>
      {fields.map((f) => (
        <tr key={f.name} data-field={f.name}>
          <td>
            <code>{f.name}</code>
            {f.required && <span className="api-ref__required"> required</span>}
          </td>
          <td>
            <code>{f.type}</code>
          </td>
          <td>{[...f.bounds, ...(f.description ? [f.description] : [])].join('; ')}</td>
        </tr>
      ))}
    </>
  );
}

function Parameters({ doc, op }: { doc: OpenApiDocument; op: OpenApiOperation }) {
  const params = (op.parameters ?? []).map((p) => resolved<OpenApiParameter>(doc, p, 'parameters')).filter((p): p is OpenApiParameter => p !== undefined);
  if (params.length === 0) return null;
  const schemaOf = (p: OpenApiParameter) => p.schema as JsonSchema;
  return (
    <table className="api-ref__table">
      <caption>Parameters</caption>
      <thead>
        <tr>
          <th>Name</th>
          <th>In</th>
          <th>Type</th>
          <th>Rules</th>
        </tr>
      </thead>
      <tbody>
        {params.map((p) => (
          <tr key={`${p.in}:${p.name}`}>
            <td>
              <code>{p.name}</code>
              {p.required && <span className="api-ref__required"> required</span>}
            </td>
            <td>{p.in}</td>
            <td>
              <code>{typeOf(schemaOf(p))}</code>
            </td>
            <td>{[...boundsOf(schemaOf(p)), ...(p.description ? [p.description] : [])].join('; ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RequestBody({ op }: { op: OpenApiOperation }) {
  const body = op.requestBody;
  if (!body) return null;
  const [contentType, media] = Object.entries(body.content)[0] ?? [];
  const fields = fieldsOf(media?.schema as JsonSchema | undefined);
  return (
    <table className="api-ref__table" data-testid="api-request-body">
      <caption>
        Request body ({contentType}){body.required ? '' : ', optional'}
        {body.description ? ` — ${body.description}` : ''}
      </caption>
      {fields.length > 0 && (
        <>
          <thead>
            <tr>
              <th>Field</th>
              <th>Type</th>
              <th>Rules</th>
            </tr>
          </thead>
          <tbody>
            <FieldRows fields={fields} />
          </tbody>
        </>
      )}
    </table>
  );
}

function Responses({ doc, op }: { doc: OpenApiDocument; op: OpenApiOperation }) {
  return (
    <table className="api-ref__table">
      <caption>Responses</caption>
      <tbody>
        {Object.entries(op.responses).map(([status, value]) => {
          const response = resolved<OpenApiResponse>(doc, value, 'responses');
          const types = Object.keys(response?.content ?? {});
          const fields = status.startsWith('2') ? fieldsOf(response?.content?.['application/json']?.schema as JsonSchema | undefined) : [];
          return (
            <tr key={status}>
              <td>
                <span className={`api-ref__status api-ref__status--${status[0]}xx`}>{status}</span>
              </td>
              <td>
                {response?.description}
                {types.length > 0 && <span className="api-ref__types"> ({types.join(', ')})</span>}
                {fields.length > 0 && (
                  <details>
                    <summary>Fields</summary>
                    <table className="api-ref__table api-ref__table--nested">
                      <tbody>
                        <FieldRows fields={fields} />
                      </tbody>
                    </table>
                  </details>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Endpoint({ doc, entry }: { doc: OpenApiDocument; entry: Entry }) {
  const { method, path, op } = entry;
  return (
    <article className="api-ref__endpoint card" id={op.operationId} data-testid="api-endpoint" data-endpoint={`${method.toUpperCase()} ${path}`}>
      <header className="api-ref__head">
        <span className={`api-ref__method api-ref__method--${method}`}>{method.toUpperCase()}</span>
        <code className="api-ref__path">{path}</code>
        <span className="badge" data-testid="api-access">
          {accessLabels[op['x-access']]}
        </span>
      </header>
      <p className="api-ref__summary">{op.summary}</p>
      {op.description && (
        <p className="api-ref__description">
          <Prose text={op.description} />
        </p>
      )}
      <Parameters doc={doc} op={op} />
      <RequestBody op={op} />
      <Responses doc={doc} op={op} />
    </article>
  );
}

export function ApiReference() {
  const { data: doc, error, isPending } = useOpenApi();
  if (error) return <FetchError text="Failed to load the API reference" error={error} />;
  if (isPending) return <p className="api-ref__loading">Loading the API reference…</p>;
  const groups = byTag(doc);
  return (
    <div className="api-ref" data-testid="api-reference">
      <section className="card api-ref__intro">
        {doc.info.description && (
          <p>
            <Prose text={doc.info.description} />
          </p>
        )}
        <p>
          Version {doc.info.version}. Machine-readable: <a href={OPENAPI_PATH}>{OPENAPI_PATH}</a> (OpenAPI {doc.openapi}). Send the token of{' '}
          <code>POST /api/auth/login</code> as <code>Authorization: Bearer &lt;token&gt;</code>.
        </p>
        <nav aria-label="API sections" className="api-ref__toc">
          {groups.map(([tag]) => (
            <a key={tag} href={`#tag-${tag}`}>
              {tag}
            </a>
          ))}
        </nav>
      </section>
      {groups.map(([tag, entries]) => (
        <section key={tag} id={`tag-${tag}`} className="api-ref__group" aria-labelledby={`tag-${tag}-title`}>
          <h2 id={`tag-${tag}-title`}>{tag}</h2>
          {entries.map((entry) => (
            <Endpoint key={`${entry.method} ${entry.path}`} doc={doc} entry={entry} />
          ))}
        </section>
      ))}
    </div>
  );
}
