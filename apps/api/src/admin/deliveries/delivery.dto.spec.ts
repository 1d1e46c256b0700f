import { withoutCredentials } from './delivery.dto';

describe('withoutCredentials', () => {
  it('masks basic-auth credentials in a webhook URL', () => {
    expect(withoutCredentials('https://user:pass@hooks.example.test/in?x=1')).toBe('https://***@hooks.example.test/in?x=1');
    expect(withoutCredentials('https://user@hooks.example.test/in')).toBe('https://***@hooks.example.test/in');
  });

  it('leaves a URL without credentials as it was', () => {
    expect(withoutCredentials('https://hooks.example.test/in?x=1')).toBe('https://hooks.example.test/in?x=1');
  });
});
