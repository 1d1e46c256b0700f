import { InvalidCharactersError } from '../../common/errors/http-errors';
import { InvalidListQueryError } from '../admin-errors';
import { dateBoundFilter, enumFilter, uuidFilter } from './filters';
import { contentRange, MAX_PAGE_SIZE, parseListQuery, type ListSpec } from './list-query';

const spec: ListSpec<Record<string, unknown>> = {
  resource: 'things',
  sortFields: ['createdAt', 'name', 'id'],
  defaultSort: ['createdAt', 'desc'],
  tieBreaker: 'id',
  filters: { id: uuidFilter('id'), status: enumFilter('status', ['on', 'off'] as const), q: (v) => ({ q: v }), createdAt_gte: dateBoundFilter('createdAt', 'gte') },
};
const ID = '3f1b7a52-9c1e-4d7a-8a47-0d6f3f1b7a52';

function codeOf(query: Record<string, unknown>): string {
  try {
    parseListQuery(query, spec);
  } catch (err) {
    if (err instanceof InvalidListQueryError || err instanceof InvalidCharactersError) return err.code;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('parseListQuery', () => {
  it('reads sort, range and filter as react-admin sends them', () => {
    const q = parseListQuery({ sort: '["name","ASC"]', range: '[10,19]', filter: `{"id":"${ID}","status":["on","off"]}` }, spec);
    expect(q).toEqual({
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      skip: 10,
      take: 10,
      where: [{ id: ID }, { status: { in: ['on', 'off'] } }],
    });
  });

  it('uses the default sort and the largest page when nothing is given', () => {
    expect(parseListQuery({}, spec)).toEqual({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: 0, take: MAX_PAGE_SIZE, where: [] });
  });

  it('does not repeat the tie-breaker when sorting by it', () => {
    expect(parseListQuery({ sort: '["id","DESC"]' }, spec).orderBy).toEqual([{ id: 'desc' }]);
  });

  it('keeps dates at the edges Postgres stores', () => {
    const q = parseListQuery({ filter: '{"createdAt_gte":"0001-01-01T00:00:00Z"}' }, spec);
    expect(q.where).toEqual([{ createdAt: { gte: new Date('0001-01-01T00:00:00Z') } }]);
    expect(() => dateBoundFilter('createdAt', 'lte')('9999-12-31T23:59:59.999Z')).not.toThrow();
  });

  it('takes a list of ids for getMany', () => {
    expect(parseListQuery({ filter: JSON.stringify({ id: [ID, ID] }) }, spec).where).toEqual([{ id: { in: [ID, ID] } }]);
  });

  it.each([
    [{ sort: '["secret","ASC"]' }, 'invalid-sort'],
    [{ sort: '["name","SIDEWAYS"]' }, 'invalid-sort'],
    [{ sort: ['["name","ASC"]', '["id","ASC"]'] }, 'invalid-sort'],
    [{ range: '[0,100]' }, 'invalid-range'],
    [{ range: '[5,4]' }, 'invalid-range'],
    [{ range: '[0,"9"]' }, 'invalid-range'],
    [{ range: '[0]' }, 'invalid-range'],
    [{ filter: 'null' }, 'invalid-filter'],
    [{ filter: '{"status":"maybe"}' }, 'invalid-filter'],
    [{ filter: '{"id":["nope"]}' }, 'invalid-filter'],
    [{ filter: `{"id":${JSON.stringify(Array(MAX_PAGE_SIZE + 1).fill(ID))}}` }, 'invalid-filter'],
    [{ filter: '{"tenantId":"x"}' }, 'invalid-filter'],
    [{ embed: '[]' }, 'unknown-query-parameter'],
    // Dates Postgres cannot store (no year 0, nothing past 9999 in the driver's form).
    [{ filter: '{"createdAt_gte":"0000-01-01"}' }, 'invalid-filter'],
    [{ filter: '{"createdAt_gte":"-000001-01-01T00:00:00Z"}' }, 'invalid-filter'],
    [{ filter: '{"createdAt_gte":"+010000-01-01T00:00:00Z"}' }, 'invalid-filter'],
    // JSON escapes for text Postgres cannot store, which only exist once the filter is parsed.
    [{ filter: '{"q":"a\\u0000b"}' }, 'invalid-characters'],
    [{ filter: '{"q":"\\ud800"}' }, 'invalid-characters'],
  ])('rejects %j with %s', (query, code) => {
    expect(codeOf(query)).toBe(code);
  });
});

describe('contentRange', () => {
  it('names the rows of the page and the total', () => {
    expect(contentRange('sessions', 0, 25, 319)).toBe('sessions 0-24/319');
    expect(contentRange('sessions', 300, 19, 319)).toBe('sessions 300-318/319');
  });

  it('writes an empty page as */total', () => {
    expect(contentRange('sessions', 400, 0, 319)).toBe('sessions */319');
  });
});
