import type { HttpMethod, RouteSpec } from './contract.js';
import { decodeComponent } from '../http/json-guard.js';

/** Compiles the declared paths (`/aircraft/{id}`) once; static segments win over parameters. */
interface Compiled {
  spec: RouteSpec;
  regex: RegExp;
  names: string[];
  score: number;
}

export type Match =
  | { kind: 'route'; spec: RouteSpec; params: Record<string, string> }
  | { kind: 'method'; allow: HttpMethod[] }
  /** the route, but a parameter's percent escapes are not UTF-8 text (`%FF`, `%ED%A0%80`): a 400, not another route */
  | { kind: 'badParam'; spec: RouteSpec; name: string }
  | { kind: 'none' };

export function compileRoutes(specs: RouteSpec[]) {
  const compiled: Compiled[] = specs.map((spec) => {
    const names: string[] = [];
    const segs = spec.path.split('/').filter(Boolean);
    const pattern = segs
      .map((s) => {
        const m = /^\{(\w+)\}$/.exec(s);
        if (!m) return '/' + s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(m[1]);
        return '/([^/]+)';
      })
      .join('');
    // more static segments first, then earlier static positions
    const score = segs.reduce((acc, s, i) => acc + (s.startsWith('{') ? 0 : 1 << (16 - i)), 0);
    return { spec, regex: new RegExp(`^${pattern}/?$`), names, score };
  });
  compiled.sort((a, b) => b.score - a.score);

  return function match(method: string, path: string): Match {
    const allow = new Set<HttpMethod>();
    for (const c of compiled) {
      const m = c.regex.exec(path);
      if (!m) continue;
      if (c.spec.method !== method) {
        allow.add(c.spec.method);
        continue;
      }
      const params: Record<string, string> = {};
      for (const [i, n] of c.names.entries()) {
        const value = decodeComponent(m[i + 1]!);
        if (value === null) return { kind: 'badParam', spec: c.spec, name: n };
        params[n] = value;
      }
      return { kind: 'route', spec: c.spec, params };
    }
    return allow.size ? { kind: 'method', allow: [...allow] } : { kind: 'none' };
  };
}

