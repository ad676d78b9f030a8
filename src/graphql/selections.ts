import { Kind, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * The fields of these selection sets, through inline fragments and named ones, each named fragment once (directives
 * not applied: a superset). Iterative: the policy walks clients' documents with it, however deep their fragments nest.
 */
export function fieldsOf(sets: readonly SelectionSetNode[], fragment: (name: string) => FragmentDefinitionNode | null | undefined): FieldNode[] {
  const out: FieldNode[] = [];
  const seen = new Set<string>();
  const stack = [...sets];
  while (stack.length) {
    for (const s of stack.pop()!.selections) {
      if (s.kind === Kind.FIELD) out.push(s);
      else if (s.kind === Kind.INLINE_FRAGMENT) stack.push(s.selectionSet);
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        const f = fragment(s.name.value);
        if (f) stack.push(f.selectionSet);
      }
    }
  }
  return out;
}
