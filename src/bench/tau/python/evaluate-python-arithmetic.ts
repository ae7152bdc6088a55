import { PyFloat, numericValue, type PyNumber } from "./py-value.js";
import { add, multiply, negate, subtract } from "./python-arithmetic.js";
import { PythonError } from "./python-error.js";

/**
 * Evaluates an arithmetic expression (digits, `+ - * / ( ) .` and spaces — τ-bench's `calculate`
 * allows only those) with Python's semantics: ints stay ints except under `/`, `**` binds tighter
 * than unary minus and associates to the right, `//` floors. Errors are Python's.
 */
export function evaluatePythonArithmetic(expression: string): PyNumber {
  const tokens = tokenize(expression);
  const parser = new ExpressionParser(tokens);
  const value = parser.parseSum();
  if (parser.peek() !== undefined) throw syntaxError();
  return value;
}

type Token = { kind: "number"; value: PyNumber } | { kind: "operator"; text: string };

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+\.\d*|\.\d+|\d+)|(\*\*|\/\/|[-+*/()]))/y;
  let position = 0;
  while (position < expression.length) {
    if (/^\s*$/.test(expression.slice(position))) break;
    pattern.lastIndex = position;
    const match = pattern.exec(expression);
    if (!match) throw syntaxError();
    position = pattern.lastIndex;
    const [, number, operator] = match;
    if (number !== undefined) {
      if (number.includes(".")) tokens.push({ kind: "number", value: new PyFloat(Number(number)) });
      else if (/^0\d*[1-9]/.test(number)) throw new PythonError("SyntaxError", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)");
      else tokens.push({ kind: "number", value: Number(number) });
      // Two literals in a row ("1 2", "1.2.3") are not an expression.
      if (tokens.at(-2)?.kind === "number") throw syntaxError();
    } else if (operator !== undefined) {
      tokens.push({ kind: "operator", text: operator });
    }
  }
  return tokens;
}

class ExpressionParser {
  private index = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private takeOperator(...texts: string[]): string | undefined {
    const token = this.peek();
    if (token?.kind === "operator" && texts.includes(token.text)) {
      this.index++;
      return token.text;
    }
    return undefined;
  }

  parseSum(): PyNumber {
    let value = this.parseProduct();
    for (let operator = this.takeOperator("+", "-"); operator; operator = this.takeOperator("+", "-")) {
      const right = this.parseProduct();
      value = operator === "+" ? add(value, right) : subtract(value, right);
    }
    return value;
  }

  private parseProduct(): PyNumber {
    let value = this.parseUnary();
    for (let operator = this.takeOperator("*", "/", "//"); operator; operator = this.takeOperator("*", "/", "//")) {
      const right = this.parseUnary();
      value = operator === "*" ? multiply(value, right) : operator === "/" ? divide(value, right) : floorDivide(value, right);
    }
    return value;
  }

  private parseUnary(): PyNumber {
    const operator = this.takeOperator("+", "-");
    if (operator === "-") return negate(this.parseUnary());
    if (operator === "+") return this.parseUnary();
    return this.parsePower();
  }

  private parsePower(): PyNumber {
    const base = this.parseAtom();
    if (!this.takeOperator("**")) return base;
    return power(base, this.parseUnary());
  }

  private parseAtom(): PyNumber {
    const token = this.peek();
    if (token?.kind === "number") {
      this.index++;
      return token.value;
    }
    if (token?.kind === "operator" && token.text === "(") {
      this.index++;
      if (this.takeOperator(")")) throw new PythonError("TypeError", "float() argument must be a string or a real number, not 'tuple'");
      const value = this.parseSum();
      if (!this.takeOperator(")")) throw this.index >= this.tokens.length ? new PythonError("SyntaxError", "'(' was never closed (<string>, line 1)") : syntaxError();
      return value;
    }
    throw syntaxError();
  }
}

function divide(left: PyNumber, right: PyNumber): PyNumber {
  if (numericValue(right) === 0) {
    throw new PythonError("ZeroDivisionError", left instanceof PyFloat || right instanceof PyFloat ? "float division by zero" : "division by zero");
  }
  return new PyFloat(numericValue(left) / numericValue(right));
}

function floorDivide(left: PyNumber, right: PyNumber): PyNumber {
  const isFloat = left instanceof PyFloat || right instanceof PyFloat;
  if (numericValue(right) === 0) throw new PythonError("ZeroDivisionError", isFloat ? "float floor division by zero" : "integer division or modulo by zero");
  const quotient = Math.floor(numericValue(left) / numericValue(right));
  return isFloat ? new PyFloat(quotient) : quotient;
}

function power(base: PyNumber, exponent: PyNumber): PyNumber {
  const isFloat = base instanceof PyFloat || exponent instanceof PyFloat || numericValue(exponent) < 0;
  if (numericValue(base) === 0 && numericValue(exponent) < 0) {
    throw new PythonError("ZeroDivisionError", "0.0 cannot be raised to a negative power");
  }
  const result = numericValue(base) ** numericValue(exponent);
  return isFloat ? new PyFloat(result) : result;
}

function syntaxError(): PythonError {
  return new PythonError("SyntaxError", "invalid syntax (<string>, line 1)");
}
