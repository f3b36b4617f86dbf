/**
 * A projection is a pure evolve per document plus a thin writer (the runtime) that skips events at or
 * below the document's stored position, so redelivery is harmless.
 */
import type { DomainEvent } from '@papertrade/domain/shared/decider';
import type { Document } from '../document-store/document-store';
import type { RecordedEvent } from '../event-store/event-store';

export interface ProjectionDefinition<D extends Document = Document> {
  /** Also the base name of its collection. */
  name: string;
  /** Which documents an event touches (none for events it ignores). */
  documentIds(event: RecordedEvent): string[];
  /** Next state of one document; null deletes it. */
  evolve(doc: D | null, event: DomainEvent, recorded: RecordedEvent): D | null;
}
