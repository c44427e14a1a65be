// Streaming walk over office XML (OOXML, ODF) with htmlparser2 in XML mode: no DOM is built,
// so a 50 MB sheet costs one pass. Names keep their prefix ('a:t', 'text:p').
import { posix } from 'node:path';
import { Parser } from 'htmlparser2';

export interface XmlHandlers {
  open?(name: string, attributes: Record<string, string>): void;
  close?(name: string): void;
  text?(text: string): void;
}

export function walkXml(xml: string, handlers: XmlHandlers): void {
  const parser = new Parser(
    {
      onopentag: (name, attributes) => handlers.open?.(name, attributes),
      onclosetag: (name) => handlers.close?.(name),
      ontext: (text) => handlers.text?.(text),
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
}

/** Relationship id → part path, from an OOXML `_rels/*.rels` part (ECMA-376 Part 2, 9.3). */
export function readRelationships(xml: string | null, partFolder: string): Map<string, string> {
  const targets = new Map<string, string>();
  if (xml === null) return targets;
  walkXml(xml, {
    open(name, attributes) {
      const { Id: id, Target: target, TargetMode: mode } = attributes;
      if (name !== 'Relationship' || !id || !target || mode === 'External') return;
      const path = target.startsWith('/') ? target.slice(1) : posix.join(partFolder, target);
      targets.set(id, posix.normalize(path));
    },
  });
  return targets;
}

/** Collapses runs of blank lines and trailing spaces left by layout markup. */
export const tidy = (text: string): string =>
  text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
