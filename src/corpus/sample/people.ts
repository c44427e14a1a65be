// The cast of the sample mailbox: Acme Corp staff around the owner, suppliers, partners.

import type { Who } from './kit.js';

export { OWNER as laura } from './kit.js';

// Acme Corp
export const david: Who = {
  name: 'David Chen',
  address: 'david.chen@acme-corp.com',
  client: 'outlook',
  tz: -300,
};
export const sarah: Who = {
  name: 'Sarah Johnson',
  address: 'sarah.johnson@acme-corp.com',
  client: 'outlook',
  tz: -300,
};
export const marco: Who = {
  name: 'Marco Rossi',
  address: 'marco.rossi@acme-corp.com',
  client: 'gmail',
  tz: 60,
};
export const priya: Who = {
  name: 'Priya Patel',
  address: 'priya.patel@acme-corp.com',
  client: 'gmail',
  tz: -300,
};
export const tom: Who = {
  name: 'Tom Becker',
  address: 'tom.becker@acme-corp.com',
  client: 'apple',
  tz: -300,
};
export const olga: Who = {
  name: 'Ольга Иванова',
  address: 'olga.ivanova@acme-corp.com',
  client: 'thunderbird',
  tz: 180,
};

// Nordwind Logistik GmbH, the supplier of PO-7731
export const klaus: Who = {
  name: 'Klaus Weber',
  address: 'k.weber@nordwind-logistik.de',
  client: 'outlook',
  tz: 60,
};
export const anna: Who = {
  name: 'Anna Schmidt',
  address: 'versand@nordwind-logistik.de',
  client: 'thunderbird',
  tz: 60,
};

// Other correspondents
export const giulia: Who = {
  name: 'Giulia Ferrari',
  address: 'giulia.ferrari@fornitureitalia.it',
  client: 'outlook',
  tz: 60,
};
export const dmitry: Who = {
  name: 'Дмитрий Соколов',
  address: 'd.sokolov@ural-trans.ru',
  client: 'thunderbird',
  tz: 300,
};
export const camille: Who = {
  name: 'Camille Durand',
  address: 'c.durand@transports-durand.fr',
  client: 'apple',
  tz: 60,
};
export const javier: Who = {
  name: 'Javier López',
  address: 'javier.lopez@logistica-iberica.es',
  client: 'gmail',
  tz: 60,
};
export const tanaka: Who = {
  name: '田中 健',
  address: 'k.tanaka@tokyo-shoji.co.jp',
  client: 'outlook',
  tz: 540,
};
export const wang: Who = { name: '王伟', address: 'wang.wei@huaxin-trading.cn', client: 'outlook', tz: 480 };
