// The cast of the bench:rag stories beyond the bundled sample's: suppliers, service
// providers and Acme colleagues, each with the client that decides how they quote.

import type { Who } from '../src/corpus/sample/kit.js';

export { OWNER as laura } from '../src/corpus/sample/kit.js';
export { david, dmitry, giulia, marco, olga, priya, sarah, tom } from '../src/corpus/sample/people.js';

const who = (name: string, address: string, client: Who['client'], tz: number): Who => ({
  name,
  address,
  client,
  tz,
});

export const helen = who('Helen Ward', 'helen.ward@acme-corp.com', 'outlook', 60);
export const luca = who('Luca Moretti', 'luca.moretti@acme-corp.com', 'gmail', 60);
export const hannah = who('Hannah Cole', 'h.cole@brightline-freight.co.uk', 'outlook', 0);
export const mike = who('Mike Dorsey', 'mdorsey@kestrelpack.com', 'outlook', -300);
export const jenna = who('Jenna Park', 'jenna.park@solvera.io', 'gmail', -480);
export const nina = who('Nina Sorensen', 'nina@globetrek-travel.com', 'outlook', 60);
export const giorgio = who('Giorgio Ferri', 'g.ferri@officinaferri.it', 'gmail', 60);
export const ravi = who('Ravi Menon', 'ravi.menon@inspectasia.com', 'outlook', 480);
export const lena = who('Lena Fischer', 'l.fischer@northgate-estates.com', 'apple', 60);
export const chloe = who('Chloe Martin', 'chloe@talentbridge.co.uk', 'gmail', 0);
export const oliver = who('Oliver Grant', 'oliver.grant@harbourmarine-ins.com', 'outlook', 0);
export const bassi = who('Paola Bassi', 'amministrazione@autotrasportibassi.it', 'thunderbird', 60);
export const alexei = who('Алексей Смирнов', 'a.smirnov@tekhnosnab.ru', 'thunderbird', 180);
export const irina = who('Ирина Козлова', 'i.kozlova@tekhnosnab.ru', 'outlook', 180);
