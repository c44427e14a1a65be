import { describe, expect, it } from 'vitest';
import { signatureRole } from './signature-role.js';

describe('the role a signature names', () => {
  it('keeps role and organisation, drops the name and every piece of contact data', () => {
    const card =
      'Mike Dorsey\nAccount Manager\nKestrel Packaging Inc. | 2200 Industrial Pkwy, Dayton OH\n(937) 555-0144';
    expect(signatureRole(card, 'Mike Dorsey')).toBe('Account Manager, Kestrel Packaging Inc.');
    expect(
      signatureRole(
        '--\nElizabeth Smith\nLogistics Coordinator | Keystone\ne.smith@keystone.net',
        'Elizabeth Smith',
      ),
    ).toBe('Logistics Coordinator, Keystone');
    expect(
      signatureRole(
        'Klaus Weber\nKey Account Manager\nNordwind Logistik GmbH | Hafenstraße 12 | 20457 Hamburg\nTel. +49 40 3861 2290',
        'Klaus Weber',
      ),
    ).toBe('Key Account Manager, Nordwind Logistik GmbH');
  });

  it('names nothing for a mobile signature, a bare delimiter or contact data alone', () => {
    expect(signatureRole('Sent from my iPhone', 'Tom Becker')).toBe('');
    expect(signatureRole('-- \nTom', 'Tom Becker')).toBe('');
    expect(signatureRole('+1 312 555 0142\nwww.acme-corp.com', null)).toBe('');
  });

  it('names no sign-off as a role: the sign-off heads a signature when a name follows it', () => {
    expect(signatureRole('Thanks,\nAnna', 'Anna Keller')).toBe('');
    expect(signatureRole('Grazie,\nMarco Bianchi\nResponsabile Logistica', 'Marco Bianchi')).toBe(
      'Responsabile Logistica',
    );
  });

  it('stops before a long card becomes a slogan', () => {
    const role = signatureRole(
      'Anna Keller\nHead of Logistics\nHarbor Freight Europe B.V.\nMaking every container count, on every route, every single day',
      'Anna Keller',
    );
    expect(role).toBe('Head of Logistics, Harbor Freight Europe B.V.');
  });
});
