// LoopbackDynamoDBLocal.java: starts DynamoDB Local listening on 127.0.0.1 only (its own command
// line has no host option and listens on every interface). Run with Java's source launcher:
//   java -cp 'DynamoDBLocal.jar:DynamoDBLocal_lib/*' LoopbackDynamoDBLocal.java -inMemory -port N
// Everything is reached by reflection so that nothing but the JDK is needed to compile this file.
public class LoopbackDynamoDBLocal {
  public static void main(String[] args) throws Exception {
    Class<?> runner = Class.forName("com.amazonaws.services.dynamodbv2.local.main.ServerRunner");
    Object proxy = runner.getMethod("createServerFromCommandLineArgs", String[].class)
        .invoke(null, (Object) args);
    java.lang.reflect.Field field = proxy.getClass().getDeclaredField("server");
    field.setAccessible(true);
    Object server = field.get(proxy);
    Object[] connectors = (Object[]) server.getClass().getMethod("getConnectors").invoke(server);
    for (Object connector : connectors) {
      connector.getClass().getMethod("setHost", String.class).invoke(connector, "127.0.0.1");
    }
    proxy.getClass().getMethod("start").invoke(proxy);
  }
}
