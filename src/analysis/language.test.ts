import { describe, expect, it } from 'vitest';
import { DETECT_MAX_CHARS, detectLanguage, type Language } from './language.js';

describe('detectLanguage', () => {
  it('recognises short email sentences in each language', () => {
    const samples: [Language, string][] = [
      ['en', 'Hi Sarah, could you send me the signed contract before Friday? Thanks, Tom'],
      ['it', 'Ciao Marco, ti mando in allegato la fattura di marzo. Fammi sapere se va bene.'],
      ['de', 'Hallo Anna, anbei die Rechnung für März. Bitte überweise den Betrag bis Freitag.'],
      ['fr', 'Bonjour Pierre, veuillez trouver ci-joint la facture du mois de mars. Cordialement'],
      ['es', 'Hola Lucía, te envío adjunta la factura de marzo. ¿Puedes confirmar el pago?'],
      ['pt', 'Olá João, segue em anexo a fatura de março. Você pode confirmar o pagamento?'],
      ['nl', 'Hoi Jan, in de bijlage vind je de factuur van maart. Kun je de betaling bevestigen?'],
      ['ru', 'Добрый день, Иван! Во вложении счёт за март. Подтвердите, пожалуйста, оплату.'],
    ];
    for (const [language, text] of samples)
      expect([language, detectLanguage(text)]).toEqual([language, language]);
  });

  it('returns null for text too short to tell', () => {
    expect(detectLanguage('Ok, thanks!')).toBeNull();
    expect(detectLanguage('👍')).toBeNull();
    expect(detectLanguage('INV-4471 / 2024-03-01 / 1,200.00')).toBeNull();
    expect(detectLanguage('')).toBeNull();
  });

  it('returns null for text mostly in a script we do not stem', () => {
    expect(detectLanguage('请查收附件中的三月份发票，并在周五之前确认付款。谢谢！')).toBeNull();
    expect(detectLanguage('Καλημέρα Νίκο, σας στέλνω το τιμολόγιο του Μαρτίου.')).toBeNull();
  });

  it('looks only at the start of long text', () => {
    const text = `${'Hallo Anna, anbei die Rechnung für März. '.repeat(40)}${'Hi Sarah, the contract is attached. '.repeat(200)}`;
    expect(text.length).toBeGreaterThan(DETECT_MAX_CHARS * 2);
    expect(detectLanguage(text)).toBe('de');
  });
});
