// Calendar invites (iCalendar, via ical.js) and contact cards (vCard 2.1–4.0) to the lines
// a person would search for: what, when, who, where; name, company, addresses, numbers.
import ICAL from 'ical.js';
import iconv from 'iconv-lite';
import type { FormatResult } from './types.js';

type Component = InstanceType<typeof ICAL.Component>;
type Property = InstanceType<typeof ICAL.Property>;

/** "Name <address>" from a CAL-ADDRESS property with its CN parameter. */
function person(property: Property): string {
  const address = String(property.getFirstValue() ?? '').replace(/^mailto:/i, '');
  const name = property.getParameter('cn');
  return typeof name === 'string' && name ? `${name} <${address}>` : address;
}

function time(component: Component, name: string): string | null {
  const property = component.getFirstProperty(name);
  if (!property) return null;
  const value = String(property.getFirstValue() ?? '');
  const zone = property.getParameter('tzid');
  return typeof zone === 'string' && zone ? `${value} (${zone})` : value;
}

function describeEvent(event: Component): string {
  const lines: string[] = [];
  const add = (label: string, value: unknown): void => {
    if (typeof value === 'string' && value.trim()) lines.push(`${label}: ${value.trim()}`);
  };
  add('Summary', event.getFirstPropertyValue('summary'));
  add('Start', time(event, 'dtstart'));
  add('End', time(event, 'dtend') ?? time(event, 'due'));
  add('Location', event.getFirstPropertyValue('location'));
  const organizer = event.getFirstProperty('organizer');
  if (organizer) add('Organizer', person(organizer));
  add('Attendees', event.getAllProperties('attendee').map(person).join(', '));
  add('Status', event.getFirstPropertyValue('status'));
  const description = event.getFirstPropertyValue('description');
  if (typeof description === 'string' && description.trim()) lines.push('', description.trim());
  return lines.join('\n');
}

export function extractIcs(text: string): FormatResult {
  const parsed = ICAL.parse(text);
  // Several VCALENDAR objects in one file come back as an array of jCal trees.
  const roots = (Array.isArray(parsed[0]) ? parsed : [parsed]) as unknown[];
  const blocks: string[] = [];
  for (const jcal of roots) {
    const calendar = new ICAL.Component(jcal as ConstructorParameters<typeof ICAL.Component>[0]);
    const method = calendar.getFirstPropertyValue('method');
    for (const kind of ['vevent', 'vtodo', 'vjournal']) {
      for (const item of calendar.getAllSubcomponents(kind)) {
        const block = describeEvent(item);
        blocks.push(typeof method === 'string' && method ? `Method: ${method}\n${block}` : block);
      }
    }
  }
  return { text: blocks.join('\n\n') };
}

/** Lines unfolded (RFC 6350 3.2), and vCard 2.1 quoted-printable soft line breaks joined. */
function unfold(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const last = lines.length - 1;
    const previous = lines[last];
    if (previous?.endsWith('=') && /QUOTED-PRINTABLE/i.test(previous))
      lines[last] = previous.slice(0, -1) + line;
    else if (previous !== undefined && /^[ \t]/.test(line)) lines[last] = previous + line.slice(1);
    else lines.push(line);
  }
  return lines;
}

const unescapeValue = (value: string): string =>
  value.replace(/\\([nN,;\\])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

function decodeQuotedPrintable(value: string, charset: string): string {
  const bytes = Buffer.from(
    value.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  );
  return iconv.decode(bytes, iconv.encodingExists(charset) ? charset : 'utf-8');
}

const VCARD_FIELDS: Record<string, string> = {
  FN: '',
  ORG: 'Organization',
  TITLE: 'Title',
  EMAIL: 'Email',
  TEL: 'Phone',
  ADR: 'Address',
  NOTE: 'Note',
};

export function extractVcard(text: string): FormatResult {
  const cards: string[] = [];
  let lines: string[] = [];
  for (const line of unfold(text)) {
    const match = /^(?:[\w-]+\.)?([A-Za-z-]+)((?:;[^:]*)?):(.*)$/.exec(line);
    if (!match) continue;
    const name = (match[1] as string).toUpperCase();
    const params = (match[2] as string).toUpperCase();
    if (name === 'BEGIN') lines = [];
    if (name === 'END' && lines.length > 0) cards.push(lines.join('\n'));
    const label = VCARD_FIELDS[name];
    if (label === undefined) continue;
    let value = match[3] as string;
    if (/ENCODING=QUOTED-PRINTABLE|;QUOTED-PRINTABLE/.test(params)) {
      value = decodeQuotedPrintable(value, /CHARSET=([\w-]+)/.exec(params)?.[1]?.toLowerCase() ?? 'utf-8');
    }
    // Structured values (ORG, ADR) separate components with unescaped semicolons.
    const parts = value
      .split(/(?<!\\);/)
      .map(unescapeValue)
      .map((p) => p.trim())
      .filter(Boolean);
    const joined = parts.join(name === 'ADR' ? ', ' : ' ');
    if (joined) lines.push(label ? `${label}: ${joined}` : joined);
  }
  return { text: cards.join('\n\n') };
}
