import { describe, expect, it } from 'vitest';
import { parseAuthenticationResults } from './index.js';

describe('parseAuthenticationResults', () => {
  it('reads Gmail verdicts and ignores verdicts quoted in comments', () => {
    const gmail =
      'mx.google.com; dkim=pass header.i=@stripe.example header.s=s1; ' +
      'spf=pass (google.com: domain of bounce@stripe.example designates 198.51.100.12 as permitted sender) ' +
      'smtp.mailfrom=bounce@stripe.example; dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=stripe.example';
    expect(parseAuthenticationResults([gmail])).toEqual({ dkim: 'pass', spf: 'pass', dmarc: 'pass' });
  });

  it('reads Microsoft 365 verdicts written without spaces after semicolons', () => {
    const outlook =
      'spf=softfail (sender IP is 203.0.113.66) smtp.mailfrom=paypal-security.example; ' +
      'dkim=none (message not signed) header.d=none;dmarc=fail action=quarantine ' +
      'header.from=paypal.example;compauth=fail reason=000';
    expect(parseAuthenticationResults([outlook])).toEqual({ spf: 'softfail', dkim: 'none', dmarc: 'fail' });
  });

  it('counts dkim as passed when any signature passes, and lowercases', () => {
    const value =
      'mx.example.net; dkim=FAIL header.d=old.example; dkim=Pass header.d=shop.example; dmarc=NONE';
    expect(parseAuthenticationResults([value])).toEqual({ dkim: 'pass', dmarc: 'none' });
  });

  it('uses only the topmost header, the one the receiving MTA added', () => {
    expect(
      parseAuthenticationResults([
        'mx.example.net; spf=fail smtp.mailfrom=x.example',
        'forged.example; spf=pass; dmarc=pass',
      ]),
    ).toEqual({ spf: 'fail' });
  });

  it('does not confuse dkim-atps or arc verdicts, and handles no header', () => {
    expect(
      parseAuthenticationResults(['mx.example.net; dkim-atps=neutral; arc=pass (i=1 spf=pass dkim=pass)']),
    ).toEqual({});
    expect(parseAuthenticationResults([])).toEqual({});
  });
});
