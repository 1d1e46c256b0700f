import type { FieldsDef } from '../types/fields';
import { coerceValue, coerceValues, extractMode, isKnown } from './coerce';

describe('isKnown', () => {
  it.each([
    [undefined, false],
    [null, false],
    ['', false],
    [' ', true],
    [0, true],
    [false, true],
    ['Curitiba', true],
  ])('%p is known: %p', (value, known) => {
    expect(isKnown(value)).toBe(known);
  });
});

describe('extractMode', () => {
  it('defaults to "asked" for booleans, so a stray "yes" confirms nothing', () => {
    expect(extractMode({ type: 'boolean' })).toBe('asked');
  });

  it.each(['string', 'number', 'integer'] as const)('defaults to "anywhere" for %s', (type) => {
    expect(extractMode({ type })).toBe('anywhere');
  });

  it('keeps an explicit choice', () => {
    expect(extractMode({ type: 'boolean', extract: 'anywhere' })).toBe('anywhere');
    expect(extractMode({ type: 'string', extract: 'asked' })).toBe('asked');
  });
});

describe('coerceValue', () => {
  describe('string', () => {
    it.each([
      ['Curitiba', 'Curitiba'],
      [42, '42'],
      [1500.5, '1500.5'],
      [true, 'true'],
      [false, 'false'],
    ])('turns %p into %p', (input, value) => {
      expect(coerceValue({ type: 'string' }, input)).toEqual({ ok: true, value });
    });

    it.each([[{ city: 'x' }], [['a']], [NaN], [Infinity]])('drops %p as bad-value', (input) => {
      expect(coerceValue({ type: 'string' }, input)).toEqual({ ok: false, code: 'bad-value' });
    });
  });

  describe('number', () => {
    it.each([
      [3, 3],
      [-2.5, -2.5],
      ['1500', 1500],
      ['1500.50', 1500.5],
      ['1500,50', 1500.5],
      [' 42 ', 42],
      ['-7,25', -7.25],
      ['1e3', 1000],
      ['.5', 0.5],
    ])('turns %p into %p', (input, value) => {
      expect(coerceValue({ type: 'number' }, input)).toEqual({ ok: true, value });
    });

    it.each([['1.500,50'], ['1,500.50'], ['1,500,000'], ['R$ 10'], ['dez'], [''], [true], [NaN], [Infinity], ['1e999'], [null], [{}]])(
      'drops %p as bad-value',
      (input) => {
        expect(coerceValue({ type: 'number' }, input)).toEqual({ ok: false, code: 'bad-value' });
      },
    );
  });

  describe('integer', () => {
    it.each([
      [4, 4],
      ['4', 4],
      [2.9, 2],
      [-2.9, -2],
      ['3,7', 3],
      ['-0,5', 0],
    ])('reads %p as a number, then truncates toward zero to %p', (input, value) => {
      const result = coerceValue({ type: 'integer' }, input);
      expect(result).toEqual({ ok: true, value });
      expect(Object.is((result as { value: number }).value, -0)).toBe(false);
    });

    it('drops what is not a number', () => {
      expect(coerceValue({ type: 'integer' }, 'quatro')).toEqual({ ok: false, code: 'bad-value' });
      expect(coerceValue({ type: 'integer' }, '1.500,50')).toEqual({ ok: false, code: 'bad-value' });
    });
  });

  describe('boolean', () => {
    it.each([
      [true, true],
      [false, false],
      ['true', true],
      ['Sim', true],
      [' YES ', true],
      ['1', true],
      ['false', false],
      ['não', false],
      ['NÃO', false],
      ['na\u0303o', false],
      ['nao', false],
      ['No', false],
      ['0', false],
    ])('reads %p as %p', (input, value) => {
      expect(coerceValue({ type: 'boolean' }, input)).toEqual({ ok: true, value });
    });

    it.each([['talvez'], ['y'], [1], [0], ['sim!'], [null], [[]]])('drops %p as bad-value', (input) => {
      expect(coerceValue({ type: 'boolean' }, input)).toEqual({ ok: false, code: 'bad-value' });
    });
  });

  describe('enum', () => {
    it('keeps a coerced value that is in the enum', () => {
      expect(coerceValue({ type: 'integer', enum: [1, 2, 3] }, '2')).toEqual({ ok: true, value: 2 });
      expect(coerceValue({ type: 'string', enum: ['casal', 'solteiro'] }, 'casal')).toEqual({ ok: true, value: 'casal' });
    });

    it('drops a value outside the enum as not-in-enum', () => {
      expect(coerceValue({ type: 'string', enum: ['casal', 'solteiro'] }, 'Casal')).toEqual({ ok: false, code: 'not-in-enum' });
      expect(coerceValue({ type: 'integer', enum: [1, 2, 3] }, 4)).toEqual({ ok: false, code: 'not-in-enum' });
    });

    it('reports bad-value before the enum check when the type does not fit', () => {
      expect(coerceValue({ type: 'integer', enum: [1, 2] }, 'um')).toEqual({ ok: false, code: 'bad-value' });
    });
  });
});

describe('coerceValues', () => {
  const fields: FieldsDef = {
    cidade: { type: 'string' },
    hospedes: { type: 'integer' },
    quarto: { type: 'string', enum: ['casal', 'solteiro'] },
    confirma: { type: 'boolean' },
  };

  it('writes coerced values and lists each dropped one with its code, in reported order', () => {
    expect(
      coerceValues(fields, {
        cidade: 'Curitiba',
        hospedes: '2,0',
        quarto: 'suite',
        confirma: 'talvez',
        pets: 'sim',
      }),
    ).toEqual({
      values: { cidade: 'Curitiba', hospedes: 2 },
      dropped: [
        { slug: 'quarto', value: 'suite', code: 'not-in-enum' },
        { slug: 'confirma', value: 'talvez', code: 'bad-value' },
        { slug: 'pets', value: 'sim', code: 'unknown-field' },
      ],
    });
  });

  it('skips values that are not known (null, "" or absent) without an outcome', () => {
    expect(coerceValues(fields, { cidade: null, hospedes: '', quarto: undefined, pets: null })).toEqual({
      values: {},
      dropped: [],
    });
  });

  it('does not take inherited object keys for fields', () => {
    expect(coerceValues(fields, { toString: 'x' }).dropped).toEqual([{ slug: 'toString', value: 'x', code: 'unknown-field' }]);
  });
});
