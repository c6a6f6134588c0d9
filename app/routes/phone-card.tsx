// The farmer's card for the box's door (docs/telephony.md, "The numbers"): one A5 page, in Hindi
// with English beside it, with this environment's three numbers filled in from its configuration
// (worker/services/phone-numbers.ts). Plain HTML in the app's Devanagari font, for printing; a
// number this environment has not configured keeps a line to write it on by hand.

import { phoneNumbersOf } from "../../worker/services/phone-numbers.ts";
import type { RouteHandle } from "../root.tsx";
import { envOf } from "../session.server.ts";
import type { Route } from "./+types/phone-card";

export const handle: RouteHandle = { hydrate: false };

export const meta: Route.MetaFunction = () => [{ title: "सिंचाई: फ़ोन से पंप चलाएँ / Switch the pump from any phone" }];

export function loader({ context }: Route.LoaderArgs) {
  return { numbers: phoneNumbersOf(envOf(context)) };
}

const spaced = (number: string | null) => (number ? number.replace(/^\+91(\d{5})(\d{5})$/, "+91 $1 $2") : "__________");

export default function PhoneCard({ loaderData }: Route.ComponentProps) {
  const { numbers } = loaderData;
  return (
    <main className="phone-card" lang="hi">
      <h1>
        सिंचाई: फ़ोन से पंप चलाएँ <span lang="en">Switch the pump from any phone</span>
      </h1>
      <table>
        <tbody>
          <tr>
            <th>
              नंबर <span lang="en">Number</span>
            </th>
            <th>
              क्या होगा <span lang="en">What it does</span>
            </th>
          </tr>
          <tr>
            <td className="number">
              हमारा नंबर <span lang="en">SMS</span>
              <br />
              <strong data-testid="card-sms">{spaced(numbers.sms)}</strong>
            </td>
            <td>
              SMS भेजें, या कॉल करके मेनू सुनें <span lang="en">Send an SMS, or call for the menu</span>
            </td>
          </tr>
          <tr>
            <td className="number">
              बंद नंबर <span lang="en">Stop</span>
              <br />
              <strong data-testid="card-stop">{spaced(numbers.stop)}</strong>
            </td>
            <td>
              मिस्ड कॉल = मोटर बंद (मुफ़्त) <span lang="en">Missed call = motor OFF (free)</span>
            </td>
          </tr>
          <tr>
            <td className="number">
              चालू नंबर <span lang="en">Start</span>
              <br />
              <strong data-testid="card-start">{spaced(numbers.start)}</strong>
            </td>
            <td>
              मिस्ड कॉल = मोटर चालू, अगर मालिक ने चालू किया हो{" "}
              <span lang="en">Missed call = motor ON, if the owner turned it on</span>
            </td>
          </tr>
        </tbody>
      </table>
      <table>
        <tbody>
          <tr>
            <th>SMS</th>
            <th>
              क्या होगा <span lang="en">What it does</span>
            </th>
          </tr>
          <tr>
            <td>
              <code>चालू 30</code> <span lang="en">ON 30</span>
            </td>
            <td>
              30 मिनट चलेगी, फिर अपने-आप बंद <span lang="en">Runs 30 minutes, then stops by itself</span>
            </td>
          </tr>
          <tr>
            <td>
              <code>बंद</code> <span lang="en">OFF</span>
            </td>
            <td>
              मोटर बंद <span lang="en">Motor OFF</span>
            </td>
          </tr>
          <tr>
            <td>
              <code>स्थिति</code> <span lang="en">STATUS</span>
            </td>
            <td>
              चालू/बंद, कब से, करंट, बिजली <span lang="en">ON/OFF, since when, current, power</span>
            </td>
          </tr>
        </tbody>
      </table>
      <p>
        कॉल मेनू <span lang="en">Call menu</span>: <b>1</b> हाल <span lang="en">state</span> · <b>2</b> चालू, फिर 1/2/3 =
        15/30/60 मिनट <span lang="en">ON, then 1/2/3 = 15/30/60 min</span> · <b>3</b> बंद <span lang="en">OFF</span>
      </p>
      <p>
        कई पंप? पंप का नाम या डिवाइस नंबर के आखिरी 4 अक्षर जोड़ें: <code>बंद 4F2A</code>{" "}
        <span lang="en">Several pumps? Add the pump's name or the last 4 letters of its box id.</span>
      </p>
      <p>
        सिर्फ़ मालिक और उसके जोड़े ऑपरेटर, ऐप में पुष्टि किए नंबर से।{" "}
        <span lang="en">Only the owner and the operators they added, from a number verified in the app.</span>
      </p>
      <p className="warn">
        <b>"पता नहीं"</b> जवाब आए तो डिवाइस ने जवाब नहीं दिया: मोटर चल सकती है। ऐप देखें या पंप पर जाएँ।{" "}
        <span lang="en">
          "Not confirmed" means the box did not answer: the motor may be running. Check the app or go to the pump.
        </span>
      </p>
    </main>
  );
}
