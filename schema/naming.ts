import { Kind, type ConstDirectiveNode, type DocumentNode, type FieldDefinitionNode, type InputValueDefinitionNode } from 'graphql';

/**
 * The naming rule of the graph (docs/adr/0040-graphql-naming.md): types PascalCase, fields,
 * arguments and input fields camelCase. A deprecated name is a released one kept for a
 * release and is not held to it; enum values are data and are not either. Federation's
 * and the link spec's own names (`join__…`, `link__…`, `_service`, `_Any`) and
 * introspection's (`__…`) are not ours.
 */

const PASCAL_CASE = /^[A-Z][A-Za-z0-9]*$/;
const CAMEL_CASE = /^[a-z][A-Za-z0-9]*$/;

/** Names that belong to federation, the link spec or introspection. */
const isInternal = (name: string) => name.startsWith('_') || name.startsWith('join__') || name.startsWith('link__');

const isDeprecated = (directives: readonly ConstDirectiveNode[] | undefined) =>
  (directives ?? []).some((directive) => directive.name.value === 'deprecated');

/** Problems of a schema document (SDL), one line each, e.g. `Login.access_token: field is not camelCase`. */
export function namingProblems(document: DocumentNode): string[] {
  const problems: string[] = [];
  const checkValue = (owner: string, node: FieldDefinitionNode | InputValueDefinitionNode, what: string) => {
    const name = node.name.value;
    if (isInternal(name) || isDeprecated(node.directives) || CAMEL_CASE.test(name)) return;
    problems.push(`${owner}.${name}: ${what} is not camelCase`);
  };
  for (const definition of document.definitions) {
    switch (definition.kind) {
      case Kind.OBJECT_TYPE_DEFINITION:
      case Kind.OBJECT_TYPE_EXTENSION:
      case Kind.INTERFACE_TYPE_DEFINITION:
      case Kind.INTERFACE_TYPE_EXTENSION:
      case Kind.INPUT_OBJECT_TYPE_DEFINITION:
      case Kind.INPUT_OBJECT_TYPE_EXTENSION:
      case Kind.ENUM_TYPE_DEFINITION:
      case Kind.UNION_TYPE_DEFINITION:
      case Kind.SCALAR_TYPE_DEFINITION: {
        const type = definition.name.value;
        if (isInternal(type)) continue;
        if (!PASCAL_CASE.test(type)) problems.push(`${type}: type is not PascalCase`);
        if (definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION || definition.kind === Kind.INPUT_OBJECT_TYPE_EXTENSION) {
          for (const field of definition.fields ?? []) checkValue(type, field, 'input field');
        } else if ('fields' in definition) {
          for (const field of (definition.fields ?? []) as readonly FieldDefinitionNode[]) {
            checkValue(type, field, 'field');
            for (const arg of field.arguments ?? []) checkValue(`${type}.${field.name.value}`, arg, 'argument');
          }
        }
        break;
      }
      default:
        break;
    }
  }
  return problems;
}
