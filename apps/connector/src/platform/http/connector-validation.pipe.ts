import { type ValidationError, ValidationPipe, type ValidationPipeOptions } from '@nestjs/common';
import { ConnectorError } from './connector.error.js';
import { ConnectorErrorCode } from './connector-error-code.js';

/** One field a request got wrong, and what (class-validator's words). */
export interface FieldProblem {
  name: string;
  problems: string[];
}

/**
 * Why: request shapes are declared once, as DTO classes (class-validator for the checks,
 * `@ApiProperty` for the document); this pipe checks every `@Query()`/`@Body()` DTO against its
 * class and answers the connector's own 400 `bad_request`, `details.parameter` naming the first
 * wrong field (as the hand-written checks did) and `details.fields` listing them all. A name the
 * class does not declare is refused too. `options` adjusts it for one use (the web view's forms).
 */
export function connectorValidationPipe(options: ValidationPipeOptions = {}): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    stopAtFirstError: true,
    ...options,
    exceptionFactory: (errors) => {
      const fields = errors.flatMap((error) => problemsOf(error, ''));
      const first = fields[0] ?? { name: 'body', problems: ['is not valid'] };
      const message = first.problems.join('; ');
      return new ConnectorError(
        ConnectorErrorCode.BAD_REQUEST,
        message.endsWith('.') ? message : `${message}.`,
        {
          parameter: first.name,
          fields,
        },
      );
    },
  });
}

function problemsOf(error: ValidationError, prefix: string): FieldProblem[] {
  const name = `${prefix}${error.property}`;
  const own = Object.values(error.constraints ?? {});
  const nested = (error.children ?? []).flatMap((child) => problemsOf(child, `${name}.`));
  return [...(own.length > 0 ? [{ name, problems: own }] : []), ...nested];
}
