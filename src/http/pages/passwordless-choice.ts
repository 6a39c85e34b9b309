/** The sign-in page's passwordless button (passwordless.js shows it when the server offers a code or a link). */
export const passwordlessChoice = `<div id="passwordless" class="passwordless" hidden>
    <p class="or">or without a password</p>
    <button type="button" class="secondary" id="passwordless-start">Email me a sign-in code</button>
  </div>`;
