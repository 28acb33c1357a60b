import { Type } from 'typebox';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.ts';

/**
 * The one error envelope of every base (http/error-handler.ts writes it). Apart from typebox it
 * imports only the code catalogue, so the web pages' browser code imports its type too.
 */
export const ErrorEnvelope = Type.Object({
  timeStamp: Type.Integer({ description: 'When the error happened, milliseconds since 1970 (UTC)' }),
  message: Type.String({ description: 'What went wrong in this case, in words' }),
  infoLink: Type.String({ description: "The error code's entry on the error page (`/docs/errors#CODE`)" }),
  path: Type.String({ description: 'The path that was called' }),
  errorCode: Type.Unsafe<ErrorCode>({
    type: 'string',
    enum: Object.keys(ERROR_CODES),
    description: 'The error code; see infoLink',
  }),
  details: Type.Array(
    Type.Object({
      field: Type.String({ description: 'The field (or header, or parameter) that is wrong' }),
      issue: Type.String({ description: 'What is wrong with it' }),
    }),
  ),
});
