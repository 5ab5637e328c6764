import {describe, expect, it} from "vitest";
import {iccAll, iccForm, weightedIcc, ICC_FORMS} from "../../src/lib/icc.js";
import {SeededRandom} from "../../src/lib/resample.js";

// Shrout & Fleiss (1979), Table 2: six targets rated by four judges.
const SHROUT_FLEISS = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]];

describe("iccAll", () => {
  it("reproduces Shrout & Fleiss' six ICCs to their two decimals", () => {
    const got = Object.fromEntries(iccAll(SHROUT_FLEISS).map((i) => [i.form, Number(i.value.toFixed(2))]));
    expect(got).toEqual({"1,1": 0.17, "2,1": 0.29, "3,1": 0.71, "1,k": 0.44, "2,k": 0.62, "3,k": 0.91});
  });

  it("gives the F tests and 95% intervals that psych::ICC prints, as computed again with SciPy", () => {
    // SciPy 1.17: the same formulas with scipy.stats.f (sf and ppf); psych::ICC prints these rounded.
    const expected: Record<string, [value: number, f: number, df1: number, df2: number, p: number, lo: number, hi: number]> = {
      "1,1": [0.16574176840547553, 1.7946784922394685, 5, 18, 0.16476880834463953, -0.13293232487475096, 0.7225600623281211],
      "2,1": [0.2897637795275592, 11.027247956403299, 5, 15, 0.000134566516484335, 0.018786513374712027, 0.761084369648953],
      "3,1": [0.7148407148407154, 11.027247956403299, 5, 15, 0.000134566516484335, 0.34246476503392614, 0.9458582599553597],
      "1,k": [0.4427971336792688, 1.7946784922394685, 5, 18, 0.16476880834463953, -0.8844421552381196, 0.9124154203407755],
      "2,k": [0.6200505475989893, 11.027247956403299, 5, 15, 0.000134566516484335, 0.0711368153025034, 0.927232040167722],
      "3,k": [0.9093155423770697, 11.027247956403299, 5, 15, 0.000134566516484335, 0.6756747138163055, 0.9858916781690623],
    };
    for (const icc of iccAll(SHROUT_FLEISS)) {
      const [value, f, df1, df2, p, lo, hi] = expected[icc.form];
      expect(icc.value, icc.form).toBeCloseTo(value, 12);
      expect(icc.f, icc.form).toBeCloseTo(f, 12);
      expect([icc.df1, icc.df2], icc.form).toEqual([df1, df2]);
      expect(icc.p / p, icc.form).toBeCloseTo(1, 9);
      expect(icc.lo, icc.form).toBeCloseTo(lo, 9);
      expect(icc.hi, icc.form).toBeCloseTo(hi, 9);
    }
  });

  it("refuses an unbalanced matrix naming the item", () => {
    expect(() => iccAll([[1, 2], [3]])).toThrow("item 1 has 1 ratings where the first has 2: the ICC needs every item rated by the same raters");
  });

  it("parses forms as people write them", () => {
    expect(["2,1", "ICC(3,k)", "1", "2k"].map(iccForm)).toEqual(["2,1", "3,k", "1,1", "2,k"]);
    expect(() => iccForm("4,1")).toThrow('unknown ICC form "4,1": choose one of 1,1, 2,1, 3,1, 1,k, 2,k, 3,k');
  });
});

describe("weightedIcc", () => {
  it("with every weight 1 equals the ANOVA ICC to 1e-12, every form", () => {
    const random = new SeededRandom(5);
    const matrix = Array.from({length: 150}, () => {
      const level = random.nextDouble() * 8;
      return Array.from({length: 3}, (_, j) => level + j * 0.4 + random.nextDouble() * 3);
    });
    const plain = iccAll(matrix);
    for (const form of ICC_FORMS) {
      const w = weightedIcc(matrix, form)(new Float64Array(150).fill(1));
      expect(Math.abs(w - plain.find((i) => i.form === form)!.value), form).toBeLessThan(1e-12);
    }
  });

  it("counts an item of weight 2 as two copies of it", () => {
    const weights = Float64Array.of(2, 1, 0, 1, 3, 1);
    const copies = SHROUT_FLEISS.flatMap((row, i) => Array.from({length: weights[i]}, () => row));
    for (const form of ICC_FORMS) {
      expect(weightedIcc(SHROUT_FLEISS, form)(weights), form).toBeCloseTo(iccAll(copies).find((i) => i.form === form)!.value, 12);
    }
  });
});

describe("ICC where the ratio has no meaning", () => {
  it("is n/a (NaN), never ±∞ or above 1, when items do not vary or the denominator is not positive", () => {
    // Row means 1.5, 1.5, 1.5: MSR = 0, so the average-measure forms divide by zero or by a negative number.
    const byForm = Object.fromEntries(iccAll([[1, 2], [2, 1], [3, 0]]).map((i) => [i.form, i.value]));
    for (const form of ICC_FORMS) {
      const v = byForm[form];
      expect(Number.isNaN(v) || (v >= -1e9 && v <= 1), `${form}: ${v}`).toBe(true);
    }
    expect(byForm["1,k"]).toBeNaN();
    expect(byForm["3,k"]).toBeNaN();
    expect(byForm["2,k"]).toBeNaN();
  });
});
