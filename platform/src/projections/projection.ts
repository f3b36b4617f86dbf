/**
 * A projection is a pure evolve per document plus a thin writer (the runtime) that skips events at or
 * below the document's stored position, so redelivery is harmless.
 */
import type { DomainEvent } from '@papertrade/domain/shared/decider';
import type { Bus } from '../bus/bus';
import type { Document } from '../document-store/document-store';
import type { RecordedEvent } from '../event-store/event-store';

export interface ProjectionDefinition<D extends Document = Document> {
  /** Also the base name of its collection. */
  name: string;
  /** Which documents an event touches (none for events it ignores). */
  documentIds(event: RecordedEvent): string[];
  /** Next state of one document; null deletes it. */
  evolve(doc: D | null, event: DomainEvent, recorded: RecordedEvent): D | null;
  /**
   * Called after a batch of the live generation is written (documents, checkpoint, change notice),
   * with the documents the batch changed and the types of the events that changed each: the place
   * for a push that must not overtake the read model it announces (a client told "your bot is
   * ACTIVE" that reads the read model at once must find it ACTIVE). Not called while a rebuild
   * replays history into a new generation. A failure is logged and does not stop the projection:
   * what it publishes are notices (at most once), like everything on the bus.
   */
  afterWrite?(written: Array<WrittenDocument<D>>, context: { bus: Bus }): Promise<void>;
}

export interface WrittenDocument<D extends Document = Document> {
  id: string;
  /** The document as written; null when the batch deleted it. */
  doc: D | null;
  /** Types of the events of the batch that changed this document, in order, without repeats. */
  eventTypes: string[];
}
