import { GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';

/**
 * Parsed and validated operations of one subgraph, by source text. The gateway sends
 * the same few planned fetches over and over; parsing and validating each against
 * the federated schema costs more than most resolvers, so it is done once per text.
 */
export class DocumentCache {
  private readonly documents = new Map<string, DocumentNode>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly capacity = 1000,
  ) {}

  /** The document for `source`, or the syntax or validation errors that refuse it. */
  document(source: string): DocumentNode | readonly GraphQLError[] {
    const cached = this.documents.get(source);
    if (cached) return cached;
    let document: DocumentNode;
    try {
      document = parse(source);
    } catch (error) {
      if (error instanceof GraphQLError) return [error];
      throw error;
    }
    const errors = validate(this.schema, document);
    if (errors.length > 0) return errors;
    if (this.documents.size >= this.capacity) this.documents.delete(this.documents.keys().next().value!);
    this.documents.set(source, document);
    return document;
  }
}
